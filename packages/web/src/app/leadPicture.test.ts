import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { leadPicturePainted } from "./leadPicture.ts";

/** A frame as index.html and the server draw it, with the given lead markup in its main. */
function frame(lead: string): HTMLElement {
  const container = document.createElement("div");
  container.innerHTML = `<header><img src="/logo.svg" alt=""></header><main>${lead}<div role="status"></div></main>`;
  return container;
}

/** Resolves the promise's state after `ms` of fake time: "done" or "waiting". */
async function stateAfter(promise: Promise<void>, ms: number) {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await vi.advanceTimersByTimeAsync(ms);
  return done ? "done" : "waiting";
}

describe("the app waits for the page's lead picture before it loads its code", () => {
  let decodes: { src: string; settle: (ok: boolean) => void }[];
  const jsdomDecode = HTMLImageElement.prototype.decode;
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) =>
      setTimeout(() => callback(0), 16),
    );
    decodes = [];
    // jsdom decodes nothing: each decode waits for the test to settle it, as a picture still loading does.
    HTMLImageElement.prototype.decode = function (this: HTMLImageElement) {
      return new Promise<void>((resolve, reject) => {
        decodes.push({ src: this.src, settle: (ok) => (ok ? resolve() : reject(new Error("broken"))) });
      });
    };
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    HTMLImageElement.prototype.decode = jsdomDecode;
  });

  it("does not wait on a page without a lead picture, nor for the header's logo", async () => {
    expect(await stateAfter(leadPicturePainted(frame(""), 1500), 0)).toBe("done");
    expect(decodes).toEqual([]);
  });

  it("waits for the artwork the server drew, then for a frame to paint it in", async () => {
    const painted = leadPicturePainted(
      frame('<img src="/ipfs/preview" alt="Drift I" fetchpriority="high">'),
      1500,
    );
    expect(await stateAfter(painted, 1000)).toBe("waiting");
    expect(decodes.map((d) => new URL(d.src).pathname)).toEqual(["/ipfs/preview"]);
    decodes[0]?.settle(true);
    expect(await stateAfter(painted, 0)).toBe("waiting");
    expect(await stateAfter(painted, 20)).toBe("done");
  });

  it("waits for a video's poster, which has no event of its own", async () => {
    const painted = leadPicturePainted(
      frame('<video src="/ipfs/video" poster="/ipfs/poster" controls></video>'),
      1500,
    );
    expect(await stateAfter(painted, 500)).toBe("waiting");
    expect(decodes.map((d) => new URL(d.src).pathname)).toEqual(["/ipfs/poster"]);
    decodes[0]?.settle(true);
    expect(await stateAfter(painted, 20)).toBe("done");
  });

  it("loads the app when the picture is broken", async () => {
    const painted = leadPicturePainted(frame('<img src="/ipfs/gone" alt="" fetchpriority="high">'), 1500);
    decodes[0]?.settle(false);
    expect(await stateAfter(painted, 20)).toBe("done");
  });

  it("does not hold the app back longer than its cap for a picture that never arrives", async () => {
    const painted = leadPicturePainted(frame('<img src="/ipfs/huge" alt="" fetchpriority="high">'), 1500);
    expect(await stateAfter(painted, 1499)).toBe("waiting");
    expect(await stateAfter(painted, 1)).toBe("done");
  });
});
