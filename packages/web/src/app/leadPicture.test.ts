import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { leadPainted } from "./leadPicture.ts";

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

describe("the app waits for the page's lead picture before it loads its code, in a browser that does not report its largest paint", () => {
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

  it("does not wait on a page without a lead, nor for the header's logo", async () => {
    expect(await stateAfter(leadPainted(frame(""), 1500), 0)).toBe("done");
    expect(decodes).toEqual([]);
  });

  it("waits for the artwork the server drew, then for a frame to paint it in", async () => {
    const painted = leadPainted(frame('<img src="/ipfs/preview" alt="Drift I" fetchpriority="high">'), 1500);
    expect(await stateAfter(painted, 1000)).toBe("waiting");
    expect(decodes.map((d) => new URL(d.src).pathname)).toEqual(["/ipfs/preview"]);
    decodes[0]?.settle(true);
    expect(await stateAfter(painted, 0)).toBe("waiting");
    expect(await stateAfter(painted, 20)).toBe("done");
  });

  it("waits for a video's poster, which has no event of its own", async () => {
    const painted = leadPainted(
      frame('<video src="/ipfs/video" poster="/ipfs/poster" controls></video>'),
      1500,
    );
    expect(await stateAfter(painted, 500)).toBe("waiting");
    expect(decodes.map((d) => new URL(d.src).pathname)).toEqual(["/ipfs/poster"]);
    decodes[0]?.settle(true);
    expect(await stateAfter(painted, 20)).toBe("done");
  });

  it("loads the app when the picture is broken", async () => {
    const painted = leadPainted(frame('<img src="/ipfs/gone" alt="" fetchpriority="high">'), 1500);
    decodes[0]?.settle(false);
    expect(await stateAfter(painted, 20)).toBe("done");
  });

  it("does not hold the app back longer than its cap for a picture that never arrives", async () => {
    const painted = leadPainted(frame('<img src="/ipfs/huge" alt="" fetchpriority="high">'), 1500);
    expect(await stateAfter(painted, 1499)).toBe("waiting");
    expect(await stateAfter(painted, 1)).toBe("done");
  });
});

/** A browser that reports its largest paints: `report(element)` delivers an entry naming it. */
function reportingPaints() {
  const observers: ((entries: { element: Element | null }[]) => void)[] = [];
  class Observer {
    static supportedEntryTypes = ["largest-contentful-paint"];
    constructor(private callback: (list: { getEntries: () => unknown[] }) => void) {}
    observe() {
      observers.push((entries) => this.callback({ getEntries: () => entries }));
    }
    disconnect() {}
  }
  vi.stubGlobal("PerformanceObserver", Observer);
  return (element: Element | null) => {
    for (const observer of observers) observer([{ element }]);
  };
}

describe("the app waits for the page's lead to paint, in a browser that reports its largest paint", () => {
  let decodes: ((ok: boolean) => void)[];
  const jsdomDecode = HTMLImageElement.prototype.decode;
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) =>
      setTimeout(() => callback(0), 16),
    );
    decodes = [];
    HTMLImageElement.prototype.decode = () =>
      new Promise<void>((resolve, reject) => {
        decodes.push((ok) => (ok ? resolve() : reject(new Error("broken"))));
      });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    HTMLImageElement.prototype.decode = jsdomDecode;
  });

  it("waits past the picture's load until the paint names it, not for a paint of something else", async () => {
    const report = reportingPaints();
    const container = frame('<img src="/ipfs/banner" alt="" fetchpriority="high">');
    const painted = leadPainted(container, 1500);
    report(container.querySelector("header img"));
    decodes[0]?.(true);
    expect(await stateAfter(painted, 100)).toBe("waiting");
    report(container.querySelector("main img"));
    expect(await stateAfter(painted, 0)).toBe("done");
  });

  it("names a video's poster by its video", async () => {
    const report = reportingPaints();
    const container = frame('<video src="/ipfs/video" poster="/ipfs/poster" controls></video>');
    const painted = leadPainted(container, 1500);
    expect(await stateAfter(painted, 500)).toBe("waiting");
    report(container.querySelector("video"));
    expect(await stateAfter(painted, 0)).toBe("done");
  });

  it("waits for the paint of a lead drawn in text, such as the home page's hero", async () => {
    const report = reportingPaints();
    const container = frame("<section><h1>Digital art</h1><p>Easel is a marketplace</p></section>");
    const painted = leadPainted(container, 1500);
    expect(await stateAfter(painted, 0)).toBe("waiting");
    report(container.querySelector("header img"));
    expect(await stateAfter(painted, 0)).toBe("waiting");
    report(container.querySelector("main p"));
    expect(await stateAfter(painted, 0)).toBe("done");
  });

  it("does not wait long for a paint never named: a loaded picture that was not the largest, or text", async () => {
    reportingPaints();
    const picture = leadPainted(frame('<img src="/ipfs/small" alt="" fetchpriority="high">'), 1500);
    decodes[0]?.(true);
    expect(await stateAfter(picture, 200)).toBe("waiting");
    expect(await stateAfter(picture, 100)).toBe("done");
    const text = leadPainted(frame("<section><p>Hello</p></section>"), 1500);
    expect(await stateAfter(text, 300)).toBe("done");
  });

  it("loads the app at once when the picture is broken, and at the cap when it never arrives", async () => {
    reportingPaints();
    const broken = leadPainted(frame('<img src="/ipfs/gone" alt="" fetchpriority="high">'), 1500);
    decodes[0]?.(false);
    expect(await stateAfter(broken, 0)).toBe("done");
    const huge = leadPainted(frame('<img src="/ipfs/huge" alt="" fetchpriority="high">'), 1500);
    expect(await stateAfter(huge, 1499)).toBe("waiting");
    expect(await stateAfter(huge, 1)).toBe("done");
  });
});
