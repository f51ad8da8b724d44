import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeApi } from "../test/harness.tsx";

/** A page carrying `block` as its first answers, and apiFetch as the app loads it on that page. */
async function pageWith(block: string) {
  document.body.innerHTML = `<script type="application/json" id="easel-answers">${block}</script>`;
  vi.resetModules();
  return (await import("./client.ts")).apiFetch;
}

describe("the page's first answers", () => {
  beforeEach(() => {
    sessionStorage.clear();
  });
  afterEach(() => {
    document.body.innerHTML = "";
    vi.restoreAllMocks();
  });

  it("answer the first read of exactly their path, once; every other read asks the API", async () => {
    const api = fakeApi({
      "GET /api/x": (_init, url) => ({ body: { from: "api", a: url.searchParams.get("a") } }),
    });
    const apiFetch = await pageWith('{"/api/x?a=1":{"from":"page"}}');
    await expect(apiFetch("/api/x?a=1")).resolves.toEqual({ from: "page" });
    expect(api.calls).toEqual([]);
    // Read again (a refetch), and another query: the API.
    await expect(apiFetch("/api/x?a=1")).resolves.toEqual({ from: "api", a: "1" });
    await expect(apiFetch("/api/x?a=2")).resolves.toEqual({ from: "api", a: "2" });
    // Writes never take them.
    await pageWith('{"/api/x":{"from":"page"}}').then(async (fresh) => {
      fakeApi({ "POST /api/x": () => ({ body: { from: "api" } }) });
      await expect(fresh("/api/x", { method: "POST", body: {} })).resolves.toEqual({ from: "api" });
    });
  });

  it("are not used after this tab's own transaction, until the API has it", async () => {
    sessionStorage.setItem("easel.ownBlock", "42");
    const api = fakeApi({
      "GET /api/health": () => ({
        body: { chain: { ok: true, headBlock: "42" }, indexer: { indexedBlock: "42" } },
      }),
      "GET /api/x": () => ({ body: { from: "api" } }),
    });
    const apiFetch = await pageWith('{"/api/x":{"from":"page"}}');
    await expect(apiFetch("/api/x")).resolves.toEqual({ from: "api" });
    expect(api.calls.map((call) => call.path)).toEqual(["/api/health", "/api/x"]);
  });

  it("are not used once the page has been open a while, nor when the block is broken", async () => {
    fakeApi({ "GET /api/x": () => ({ body: { from: "api" } }) });
    let apiFetch = await pageWith('{"/api/x":{"from":"page"}}');
    vi.spyOn(performance, "now").mockReturnValue(10_001);
    await expect(apiFetch("/api/x")).resolves.toEqual({ from: "api" });
    vi.restoreAllMocks();

    fakeApi({ "GET /api/x": () => ({ body: { from: "api" } }) });
    apiFetch = await pageWith('{"/api/x":');
    await expect(apiFetch("/api/x")).resolves.toEqual({ from: "api" });
  });
});
