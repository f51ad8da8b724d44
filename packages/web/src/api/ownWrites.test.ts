import { afterEach, describe, expect, it, vi } from "vitest";

/** A fake API whose indexer reaches one more block on every health check; it records the reads it serves. */
function fakeServer(startBlock: number) {
  let indexed = startBlock;
  const served: { path: string; indexed: number }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => {
      if (path === "/api/health") {
        const body = { status: "ok", indexer: { indexedBlock: String(indexed) } };
        indexed += 1;
        return new Response(JSON.stringify(body), { status: 200 });
      }
      served.push({ path, indexed });
      return new Response(JSON.stringify({ data: "ok" }), { status: 200 });
    }),
  );
  return served;
}

/** A fresh copy of the modules (their state is per tab). */
async function freshModules() {
  vi.resetModules();
  sessionStorage.clear();
  const ownWrites = await import("./ownWrites.ts");
  const client = await import("./client.ts");
  return { ...ownWrites, ...client };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("reads after this tab's own transaction", () => {
  it("read at once when the tab has written nothing", async () => {
    const served = fakeServer(0);
    const { apiFetch } = await freshModules();
    await apiFetch("/api/nft");
    expect(served).toEqual([{ path: "/api/nft", indexed: 0 }]);
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(1);
  });

  it("wait until the indexer has the block of the write, then read", async () => {
    const served = fakeServer(3);
    const { apiFetch, noteOwnWrite } = await freshModules();
    noteOwnWrite(5n);
    await apiFetch("/api/nft");
    // Health said 3, 4, then 5: the read went out only after the indexer reached block 5.
    expect(served).toEqual([{ path: "/api/nft", indexed: 6 }]);
  });

  it("never wait for writes (a POST is not a read)", async () => {
    const served = fakeServer(0);
    const { apiFetch, noteOwnWrite } = await freshModules();
    noteOwnWrite(1_000n);
    await apiFetch("/api/nft/view", { method: "POST", body: {} });
    expect(served).toHaveLength(1);
  });

  it("remember the write across a reload of the tab", async () => {
    fakeServer(0);
    const first = await freshModules();
    first.noteOwnWrite(7n);
    vi.resetModules();
    const served = fakeServer(6);
    const { apiFetch } = await import("./client.ts");
    await apiFetch("/api/nft");
    expect(served).toEqual([{ path: "/api/nft", indexed: 8 }]);
  });

  it("forget writes that a reset chain no longer has, once its head stays below them", async () => {
    const served: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (path: string) => {
        if (path === "/api/health") {
          const body = { chain: { ok: true, headBlock: "2" }, indexer: { indexedBlock: "2" } };
          return new Response(JSON.stringify(body), { status: 200 });
        }
        served.push(path);
        return new Response(JSON.stringify({ data: "ok" }), { status: 200 });
      }),
    );
    const { apiFetch, noteOwnWrite } = await freshModules();
    noteOwnWrite(7n);
    // The clock is the test's, so the 3 s rule is checked at its edge, not against a busy machine's timing.
    vi.useFakeTimers();
    let answered = false;
    const read = apiFetch("/api/nft").then(() => {
      answered = true;
    });
    // A head below the tab's block for less than 3 s may be a cached read a moment old: keep waiting.
    await vi.advanceTimersByTimeAsync(2_999);
    expect(answered).toBe(false);
    expect(served).toEqual([]);
    expect(sessionStorage.getItem("easel.ownBlock")).toBe("7");
    // Below it for 3 s (the next check, 300 ms on) is a reset: the writes are forgotten and the read goes out.
    await vi.advanceTimersByTimeAsync(300);
    expect(answered).toBe(true);
    await read;
    expect(served).toEqual(["/api/nft"]);
    expect(sessionStorage.getItem("easel.ownBlock")).toBeNull();
    // Forgotten: the next read does not ask the health check again.
    const checks = vi.mocked(fetch).mock.calls.filter(([path]) => path === "/api/health").length;
    await apiFetch("/api/nft");
    expect(vi.mocked(fetch).mock.calls.filter(([path]) => path === "/api/health")).toHaveLength(checks);
  });

  it("keep waiting when the reported head is a moment behind the tab's block (a cached read)", async () => {
    let checks = 0;
    const served: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (path: string) => {
        if (path === "/api/health") {
          checks += 1;
          // The first two answers carry a head read before the tab's block 7 was mined.
          const block = checks <= 2 ? "6" : "7";
          const body = { chain: { ok: true, headBlock: block }, indexer: { indexedBlock: block } };
          return new Response(JSON.stringify(body), { status: 200 });
        }
        served.push(path);
        return new Response(JSON.stringify({ data: "ok" }), { status: 200 });
      }),
    );
    const { apiFetch, noteOwnWrite } = await freshModules();
    noteOwnWrite(7n);
    await apiFetch("/api/nft");
    expect(checks).toBe(3);
    expect(served).toEqual(["/api/nft"]);
    expect(sessionStorage.getItem("easel.ownBlock")).toBe("7");
  });

  it("slow down while the health check is refused, and read once it answers", async () => {
    let checks = 0;
    const served: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (path: string) => {
        if (path === "/api/health") {
          checks += 1;
          if (checks <= 2) return new Response("Too Many Requests", { status: 429 });
          return new Response(JSON.stringify({ indexer: { indexedBlock: "9" } }), { status: 200 });
        }
        served.push(path);
        return new Response(JSON.stringify({ data: "ok" }), { status: 200 });
      }),
    );
    const { apiFetch, noteOwnWrite } = await freshModules();
    noteOwnWrite(9n);
    const started = Date.now();
    await apiFetch("/api/nft");
    // Two refusals: waits of 300 then 600 ms before the third check.
    expect(checks).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(850);
    expect(served).toEqual(["/api/nft"]);
  });
});
