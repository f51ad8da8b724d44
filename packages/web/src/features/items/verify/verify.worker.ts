/// <reference lib="webworker" />
import type { CID } from "multiformats/cid";
import { mainnet, sepolia } from "viem/chains";
import { carBlocks, ipfsCid, MismatchError, verifiedFile } from "./car.ts";
import type { CheckRequest, CheckUpdate } from "./protocol.ts";

/**
 * The item page's artwork check, off the main thread: the token's `tokenURI` from the chain, its metadata by
 * that CID, then the artwork the metadata names, each streamed from the gateway as a CAR and proven block by
 * block against its CID (car.ts). The page gets progress, then the proven bytes or the reason they were refused.
 */

const post = (update: CheckUpdate) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(update);

/** The chain's RPC: the local chain's from the public config, else viem's public RPC (as the wallet code uses). */
function rpcUrlOf(request: CheckRequest): string {
  const known = [mainnet, sepolia].find((chain) => chain.id === request.chainId);
  const url = request.rpcUrl ?? known?.rpcUrls.default.http[0];
  if (!url) throw new Error("No RPC is known for this chain.");
  return url;
}

/** `tokenURI(tokenId)` by a plain `eth_call`, its ABI-encoded string decoded. */
async function tokenUri(request: CheckRequest): Promise<string> {
  const data = `0xc87b56dd${BigInt(request.tokenId).toString(16).padStart(64, "0")}`;
  const response = await fetch(rpcUrlOf(request), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_call",
      params: [{ to: request.contract, data }, "latest"],
    }),
  });
  const body = (await response.json()) as { result?: string; error?: { message: string } };
  if (!body.result || body.result === "0x")
    throw new Error(body.error?.message ?? "The chain did not answer.");
  const hex = body.result.slice(2);
  const offset = Number.parseInt(hex.slice(0, 64), 16) * 2;
  const length = Number.parseInt(hex.slice(offset, offset + 64), 16);
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++)
    bytes[i] = Number.parseInt(hex.slice(offset + 64 + i * 2, offset + 66 + i * 2), 16);
  return new TextDecoder().decode(bytes);
}

/** The file by CID from our trustless gateway, each chunk yielded once proven. */
async function* provenFile(cid: CID): AsyncGenerator<Uint8Array> {
  const response = await fetch(`/ipfs/${cid}?format=car&car-dups=y`, {
    headers: { accept: "application/vnd.ipld.car; version=1; order=dfs; dups=y" },
  });
  if (!response.ok || !response.body) throw new Error(`The gateway answered ${response.status}.`);
  const type = response.headers.get("content-type") ?? "";
  if (!/order=dfs/.test(type) || !/dups=y/.test(type))
    throw new Error("The gateway did not answer a depth-first CAR with duplicates.");
  yield* verifiedFile(cid, carBlocks(response.body as unknown as AsyncIterable<Uint8Array>));
}

async function check(request: CheckRequest) {
  const uri = await tokenUri(request);
  const metadataCid = ipfsCid(uri);
  if (!metadataCid) throw new MismatchError("The token's tokenURI on the chain is not an IPFS address.");
  post({ type: "progress", stage: "metadata", tokenUri: uri });
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of provenFile(metadataCid)) {
    size += part.length;
    if (size > 1024 * 1024) throw new MismatchError("The token's metadata is not a metadata file.");
    parts.push(part);
  }
  let metadata: { image?: unknown; animation_url?: unknown };
  try {
    metadata = JSON.parse(new TextDecoder().decode(await new Blob(parts as BlobPart[]).arrayBuffer()));
  } catch {
    throw new MismatchError("The token's metadata is not JSON.");
  }
  const artworkCid = ipfsCid(metadata.animation_url ?? metadata.image);
  if (!artworkCid || artworkCid.toString() !== request.artworkCid)
    throw new MismatchError(
      `The token's metadata names another artwork (${artworkCid ?? "none"}) than the one shown here.`,
    );
  post({ type: "progress", stage: "artwork", tokenUri: uri, bytes: 0 });
  const chunks: Uint8Array[] = [];
  let received = 0;
  let reported = 0;
  for await (const chunk of provenFile(artworkCid)) {
    chunks.push(chunk);
    received += chunk.length;
    if (received - reported > 1024 * 1024) {
      reported = received;
      post({ type: "progress", stage: "artwork", tokenUri: uri, bytes: received });
    }
  }
  post({
    type: "verified",
    tokenUri: uri,
    metadataCid: metadataCid.toString(),
    artworkCid: artworkCid.toString(),
    file: new Blob(chunks as BlobPart[], { type: request.mime }),
  });
}

self.onmessage = (event: MessageEvent<CheckRequest>) => {
  check(event.data).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    post(error instanceof MismatchError ? { type: "mismatch", message } : { type: "error", message });
  });
};
