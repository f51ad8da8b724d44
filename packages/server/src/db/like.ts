/** Escapes LIKE's wildcards (`%`, `_`) and its escape character, so user text matches literally. */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
