import { describe, expect, it } from "vitest";
import { fakeApi } from "../test/harness.tsx";
import { ApiError, apiFetch } from "./client.ts";

describe("apiFetch", () => {
  it("returns the JSON body", async () => {
    fakeApi({ "GET /api/x": () => ({ body: { a: 1 } }) });
    await expect(apiFetch("/api/x")).resolves.toEqual({ a: 1 });
  });

  it("throws an ApiError carrying the server's code, message and fields", async () => {
    fakeApi({
      "POST /api/x": () => ({
        status: 400,
        body: { error: { code: "VALIDATION", message: "Required", fields: { email: "Required" } } },
      }),
    });
    const error = await apiFetch("/api/x", { method: "POST", body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: "VALIDATION",
      message: "Required",
      fields: { email: "Required" },
    });
  });
});
