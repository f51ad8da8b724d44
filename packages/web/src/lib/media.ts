/** URL of a media reference from the API: absolute URLs and paths as given, bare CIDs through our gateway. */
export function mediaUrl(ref: string | null | undefined): string | null {
  if (!ref) return null;
  if (/^(https?:|data:|blob:|\/)/.test(ref)) return ref;
  return `/ipfs/${ref}`;
}
