import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./client.ts";
import { uploadMedia } from "./media.ts";

type Listener = ((event: ProgressEvent) => void) | null;

/** A stand-in XMLHttpRequest that reports upload progress in two steps, then answers `response`. */
function fakeXhr(response: { status: number; body: unknown }) {
  const sent: { url?: string; body?: unknown; credentials?: boolean } = {};
  class FakeXhr {
    upload: { onprogress: Listener } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    status = 0;
    responseText = "";
    withCredentials = false;
    open(_method: string, url: string) {
      sent.url = url;
    }
    setRequestHeader() {}
    send(body: unknown) {
      sent.body = body;
      sent.credentials = this.withCredentials;
      this.upload.onprogress?.({ lengthComputable: true, loaded: 25, total: 100 } as ProgressEvent);
      this.upload.onprogress?.({ lengthComputable: true, loaded: 60, total: 100 } as ProgressEvent);
      this.status = response.status;
      this.responseText = JSON.stringify(response.body);
      this.onload?.();
    }
  }
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe("uploadMedia", () => {
  it("reports upload progress in percent and returns the gateway path", async () => {
    const sent = fakeXhr({
      status: 200,
      body: {
        message: "Image Uploaded Successfully",
        data: {
          path: "/ipfs/bafy",
          cid: "bafy",
          thumbnail: "/ipfs/t",
          mime: "image/png",
          size: 3,
          width: 1,
          height: 1,
        },
      },
    });
    const progress: number[] = [];
    const result = await uploadMedia(
      new Blob(["png"], { type: "image/png" }),
      (p) => progress.push(p),
      "a.png",
    );
    expect(result.path).toBe("/ipfs/bafy");
    expect(progress).toEqual([25, 60, 100]);
    expect(sent.url).toBe("/api/profile/media_uploader");
    expect(sent.credentials).toBe(true);
    expect((sent.body as FormData).get("file")).toBeInstanceOf(Blob);
  });

  it("refuses 10 MB and more before sending, with the spec's message", async () => {
    const sent = fakeXhr({ status: 200, body: {} });
    const big = new Blob(["x"]);
    Object.defineProperty(big, "size", { value: 10_000_000 });
    await expect(uploadMedia(big, () => {})).rejects.toThrow("File Must be less than 10MB");
    expect(sent.url).toBeUndefined();
  });

  it("passes on the server's message", async () => {
    fakeXhr({
      status: 400,
      body: { error: { code: "invalid_image", message: "Only PNG, JPEG, GIF and WebP images are allowed." } },
    });
    const failure = await uploadMedia(new Blob(["<html>"]), () => {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe("Only PNG, JPEG, GIF and WebP images are allowed.");
  });
});
