import { webcrypto } from "node:crypto";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// A lazy route's first render imports its module; on a busy machine that alone can pass the default
// 1 s of findBy*. Waiting longer changes no assertion, only how long a slow render may take.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks these browser APIs that Radix and sonner touch.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!("ResizeObserver" in globalThis)) {
  Object.assign(globalThis, { ResizeObserver: ResizeObserverStub });
}
if (!window.matchMedia) {
  Object.defineProperty(window, "matchMedia", {
    configurable: true,
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener() {},
      removeEventListener() {},
      addListener() {},
      removeListener() {},
      dispatchEvent: () => false,
    }),
  });
}
// jsdom's crypto lacks `subtle`, which the artwork check (features/items/verify) hashes with in the browser.
if (!globalThis.crypto.subtle)
  Object.defineProperty(globalThis.crypto, "subtle", { value: webcrypto.subtle });
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};
if (!Element.prototype.hasPointerCapture) Element.prototype.hasPointerCapture = () => false;
window.scrollTo = (() => {}) as typeof window.scrollTo;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
  window.sessionStorage.clear();
  delete window.ethereum;
});
