/** What the item page asks its artwork-check worker, and what the worker answers. */

export type CheckRequest = {
  chainId: number;
  /** The local chain's RPC from the public config; null elsewhere (the worker uses the chain's public RPC). */
  rpcUrl: string | null;
  contract: string;
  tokenId: string;
  /** The artwork the page shows (from Easel's server): the chain's metadata must name this same CID. */
  artworkCid: string;
  mime: string;
};

export type CheckUpdate =
  | { type: "progress"; stage: "metadata" | "artwork"; tokenUri: string; bytes?: number }
  | { type: "verified"; tokenUri: string; metadataCid: string; artworkCid: string; file: Blob }
  | { type: "mismatch"; message: string }
  | { type: "error"; message: string };
