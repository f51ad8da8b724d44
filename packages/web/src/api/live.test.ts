import { renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useChainEvents } from "./live.ts";

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

describe("the chain's live notices", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("refresh what a page follows when its stream opens, then only on notices that concern it", () => {
    vi.stubGlobal("EventSource", FakeSource);
    const onChain = vi.fn();
    const { unmount } = renderHook(() => useChainEvents({ token: "0xabc:1" }, onChain));
    const stream = FakeSource.last as FakeSource;
    expect(stream.url).toBe("/api/events?token=0xabc%3A1");
    // Opened (and reopened after a drop): whatever was committed before it may be missing from the page.
    stream.dispatch("open");
    expect(onChain).toHaveBeenLastCalledWith({ all: true });
    stream.dispatch("chain", { tokens: ["0xdef:2"] });
    expect(onChain).toHaveBeenCalledTimes(1);
    stream.dispatch("chain", { tokens: ["0xabc:1"] });
    expect(onChain).toHaveBeenLastCalledWith({ tokens: ["0xabc:1"] });
    expect(onChain).toHaveBeenCalledTimes(2);
    unmount();
  });
});
