import type { RichText } from "@easel/common";

/**
 * The description editor's text form of a rich-text document: one line per paragraph, `**bold**`,
 * `*italic*` and `[words](https://link)`, with `\` before a character meant literally. Only what the stored
 * document can hold can be written, so the editor never produces anything the server would refuse for shape.
 */
type Run = RichText["paragraphs"][number]["runs"][number];

const LINK = /^\[((?:\\.|[^\]\\])*)\]\((https?:\/\/[^\s)]+)\)/i;
const literal = (text: string) => text.replace(/\\(.)/g, "$1");

export function fromMarkup(text: string): RichText | null {
  if (text.trim() === "") return null;
  const paragraphs = text.split(/\r?\n/).map((line) => {
    const runs: Run[] = [];
    let bold = false;
    let italic = false;
    let buffer = "";
    const style = () => ({ ...(bold ? { bold: true } : {}), ...(italic ? { italic: true } : {}) });
    const flush = () => {
      if (buffer) runs.push({ text: buffer, ...style() });
      buffer = "";
    };
    for (let i = 0; i < line.length; ) {
      const c = line[i] as string;
      if (c === "\\" && i + 1 < line.length) {
        buffer += line[i + 1];
        i += 2;
      } else if (line.startsWith("**", i)) {
        flush();
        bold = !bold;
        i += 2;
      } else if (c === "*") {
        flush();
        italic = !italic;
        i += 1;
      } else if (c === "[" && LINK.test(line.slice(i))) {
        const [whole, words = "", link = ""] = LINK.exec(line.slice(i)) ?? [];
        flush();
        runs.push({ text: literal(words) || link, ...style(), link });
        i += whole?.length ?? 1;
      } else {
        buffer += c;
        i += 1;
      }
    }
    flush();
    return { runs };
  });
  return { type: "doc", paragraphs };
}

const escapeMarkup = (text: string) => text.replace(/[\\*[\]]/g, (c) => `\\${c}`);

export function toMarkup(doc: RichText | null | undefined): string {
  if (!doc) return "";
  return doc.paragraphs
    .map((paragraph) =>
      paragraph.runs
        .map((run) => {
          let out = run.link ? `[${escapeMarkup(run.text)}](${run.link})` : escapeMarkup(run.text);
          if (run.italic) out = `*${out}*`;
          if (run.bold) out = `**${out}**`;
          return out;
        })
        .join(""),
    )
    .join("\n");
}
