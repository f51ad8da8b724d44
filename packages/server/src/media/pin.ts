/**
 * Pins files to a real IPFS node through the Kubo RPC API (`POST /api/v0/add`), which pinning providers
 * also speak. The file is streamed up as multipart, added with the same settings as our own store (CIDv1,
 * raw leaves), and the CID the node answers must equal ours: a node that chunks differently would pin
 * something the chain never names.
 */
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";

export class PinError extends Error {
  override name = "PinError";
}

export type Pinner = (file: { path: string } | { bytes: Uint8Array }, expectedCid: string) => Promise<void>;

export function kuboPinner(api: { url: URL; auth: string | undefined }): Pinner {
  return async (file, expectedCid) => {
    const boundary = `easel-${crypto.randomUUID()}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="file"\r\n` +
        "Content-Type: application/octet-stream\r\n\r\n",
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    async function* body() {
      yield head;
      if ("bytes" in file) yield file.bytes;
      else yield* createReadStream(file.path);
      yield tail;
    }
    const url = new URL("api/v0/add", api.url.href.endsWith("/") ? api.url : `${api.url.href}/`);
    for (const [key, value] of Object.entries({
      "cid-version": "1",
      "raw-leaves": "true",
      pin: "true",
      quieter: "true",
    }))
      url.searchParams.set(key, value);
    const headers: Record<string, string> = { "content-type": `multipart/form-data; boundary=${boundary}` };
    if (api.auth) headers.authorization = api.auth;
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers,
        body: Readable.toWeb(Readable.from(body())) as ReadableStream,
        duplex: "half",
        signal: AbortSignal.timeout(120_000),
      } as RequestInit);
    } catch (error) {
      throw new PinError(`the IPFS node did not answer: ${error instanceof Error ? error.message : error}`);
    }
    const text = await response.text();
    if (!response.ok) throw new PinError(`the IPFS node answered ${response.status}: ${text.slice(0, 200)}`);
    // One JSON object per line; with `quieter` the last names the file's root.
    const last = text.trim().split("\n").at(-1) ?? "";
    let hash: unknown;
    try {
      hash = (JSON.parse(last) as { Hash?: unknown }).Hash;
    } catch {
      throw new PinError("the IPFS node's answer is not JSON");
    }
    if (hash !== expectedCid) throw new PinError(`the IPFS node pinned ${String(hash)}, not ${expectedCid}`);
  };
}
