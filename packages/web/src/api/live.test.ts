import { renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** A stand-in EventSource the test opens and feeds by hand. */
class FakeSource {
  static last: FakeSource | null = null;
  listeners = new Map<string, ((event: Event) => void)[]>();
  constructor(readonly url: string) {
    FakeSource.last = this;
  }
  addEventListener(type: string, listener: (event: Event) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  dispatch(type: string, data?: unknown) {
    const event = Object.assign(new Event(type), data === undefined ? {} : { data: JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  close() {}
}

/** live.ts as a new page loads it, with `position` in its HTML (or none). */
async function pageWith(position?: string) {
  document.body.innerHTML =
    position === undefined
      ? ""
      : `<script type="application/json" id="easel-chain-position">${JSON.stringify(position)}</script>`;
  vi.resetModules();
  return (await import("./live.ts")).useChainEvents;
}

describe("the chain's live notices", () => {
  beforeEach(() => {
    vi.stubGlobal("EventSource", FakeSource);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.innerHTML = "";
  });

  it("refresh what a page follows when its stream opens, then only on notices that concern it", async () => {
    const useChainEvents = await pageWith();
    const onChain = vi.fn();
    const { unmount } = renderHook(() => useChainEvents({ token: "0xabc:1" }, onChain));
    const stream = FakeSource.last as FakeSource;
    expect(stream.url).toBe("/api/events?token=0xabc%3A1");
    // Opened (and reopened after a drop): whatever was committed before it may be missing from the page.
    stream.dispatch("ready", { position: "40:2:0xaa" });
    expect(onChain).toHaveBeenLastCalledWith({ all: true });
    stream.dispatch("chain", { tokens: ["0xdef:2"] });
    expect(onChain).toHaveBeenCalledTimes(1);
    stream.dispatch("chain", { tokens: ["0xabc:1"] });
    expect(onChain).toHaveBeenLastCalledWith({ tokens: ["0xabc:1"] });
    expect(onChain).toHaveBeenCalledTimes(2);
    unmount();
  });

  it("read nothing again when the stream opens where the page's first answers were read", async () => {
    const useChainEvents = await pageWith("40:2:0xaa");
    const onChain = vi.fn();
    const { rerender, unmount } = renderHook(({ token }) => useChainEvents({ token }, onChain), {
      initialProps: { token: "0xabc:1" },
    });
    (FakeSource.last as FakeSource).dispatch("ready", { position: "40:2:0xaa" });
    expect(onChain).not.toHaveBeenCalled();
    // Reopened for another item while nothing was committed: everything read since is current too.
    rerender({ token: "0xabc:2" });
    (FakeSource.last as FakeSource).dispatch("ready", { position: "40:2:0xaa" });
    expect(onChain).not.toHaveBeenCalled();
    unmount();
  });

  it("refresh when the chain moved, or the stream cannot say where it is, and from then on at every open", async () => {
    for (const ready of [{ position: "41:0:0xbb" }, {}, "not json"]) {
      const useChainEvents = await pageWith("40:2:0xaa");
      const onChain = vi.fn();
      const { rerender, unmount } = renderHook(({ token }) => useChainEvents({ token }, onChain), {
        initialProps: { token: "0xabc:1" },
      });
      const stream = FakeSource.last as FakeSource;
      if (typeof ready === "string")
        for (const listener of stream.listeners.get("ready") ?? [])
          listener(Object.assign(new Event("ready"), { data: ready }));
      else stream.dispatch("ready", ready);
      expect(onChain).toHaveBeenCalledExactlyOnceWith({ all: true });
      // The page has left its position: even a stream that names it again refreshes.
      rerender({ token: "0xabc:2" });
      (FakeSource.last as FakeSource).dispatch("ready", { position: "40:2:0xaa" });
      expect(onChain).toHaveBeenCalledTimes(2);
      unmount();
    }
  });

  it("refresh at every open on a page sent without a position", async () => {
    const useChainEvents = await pageWith();
    const onChain = vi.fn();
    const { unmount } = renderHook(() => useChainEvents({ token: "0xabc:1" }, onChain));
    (FakeSource.last as FakeSource).dispatch("ready", { position: "none" });
    expect(onChain).toHaveBeenCalledExactlyOnceWith({ all: true });
    unmount();
  });
});
