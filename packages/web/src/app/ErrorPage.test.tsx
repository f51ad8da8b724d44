import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeApi, renderApp, SIGNED_OUT, sessionRoute } from "../test/harness.tsx";

vi.mock("../pages/Home.tsx", () => ({
  Component: () => {
    throw new Error("boom");
  },
}));

describe("error boundary", () => {
  it("shows 'Something went wrong.' when a page fails to render, inside the layout", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ path: "/" });
    expect(await screen.findByRole("heading", { name: "Something went wrong." })).toBeTruthy();
    expect(screen.getByRole("banner")).toBeTruthy();
    spy.mockRestore();
  });
});
