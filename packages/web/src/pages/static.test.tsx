import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi, renderApp, SIGNED_OUT, sessionRoute } from "../test/harness.tsx";
import { HELP_GUIDES } from "./HelpCenter.tsx";
import { TERMS_SECTIONS } from "./TermsOfService.tsx";

describe("static pages", () => {
  it("Terms of Service has every section of the spec, Easel's fees and the liability cap", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ path: "/TermsOfServices" });
    await screen.findByRole("heading", { level: 1, name: "Terms of Service" });
    for (const title of TERMS_SECTIONS) {
      expect(screen.getByRole("heading", { level: 2, name: title })).toBeTruthy();
    }
    expect(TERMS_SECTIONS).toHaveLength(18);
    const text = document.body.textContent ?? "";
    expect(text).toMatch(/commission of 10% of the final sale price/);
    expect(text).toMatch(/Listing an NFT is\s+free apart from gas/);
    expect(text).toMatch(/lesser of the amount you paid .* or\s+\$100/);
  });

  it("FAQ has the three categories as accordions", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ path: "/FAQ" });
    for (const name of ["General", "Technical", "Practical"]) {
      expect(await screen.findByRole("heading", { level: 2, name })).toBeTruthy();
    }
    expect(document.querySelectorAll("details").length).toBeGreaterThanOrEqual(9);
  });

  it("the Help Center walks through each guide, apart from the FAQ", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ path: "/help" });
    expect(await screen.findByRole("heading", { level: 1, name: "Help Center" })).toBeTruthy();
    for (const guide of HELP_GUIDES) {
      expect(screen.getByRole("heading", { level: 2, name: guide.title })).toBeTruthy();
      expect(screen.getByRole("link", { name: guide.title }).getAttribute("href")).toBe(`#${guide.id}`);
    }
    expect(screen.getByText(/A bid in the last 15 minutes adds 15 minutes/)).toBeTruthy();
  });

  it("About tells Our Story", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ path: "/aboutUs" });
    expect(await screen.findByRole("heading", { level: 1, name: "Our Story" })).toBeTruthy();
    expect(screen.getByText(/established in June 2021/)).toBeTruthy();
  });
});
