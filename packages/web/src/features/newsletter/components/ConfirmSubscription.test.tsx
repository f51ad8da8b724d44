import { MESSAGES } from "@easel/common";
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi, renderApp, SIGNED_OUT, sessionRoute } from "../../../test/harness.tsx";

const LINK = "/newsletter/confirm?email=reader%40example.com&expires=1900000000&sig=abc";

describe("confirming the newsletter", () => {
  it("confirms only when the button is pressed, with the link's values", async () => {
    const api = fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "POST /api/marketing/confirm": () => ({ body: { message: MESSAGES.newsletterConfirmed } }),
    });
    await renderApp({ path: LINK });
    await screen.findByRole("heading", { level: 1, name: "Confirm your subscription" });
    expect(screen.getByText("reader@example.com")).toBeTruthy();
    expect(api.calls.filter((call) => call.path === "/api/marketing/confirm")).toHaveLength(0);
    fireEvent.click(screen.getByRole("button", { name: "Confirm subscription" }));
    expect(await screen.findByText(MESSAGES.newsletterConfirmed)).toBeTruthy();
    const [call] = api.calls.filter((c) => c.path === "/api/marketing/confirm");
    expect(call?.body).toEqual({ email: "reader@example.com", expires: 1900000000, sig: "abc" });
  });

  it("says in words that a link cut short is incomplete, and sends nothing", async () => {
    const api = fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ path: "/newsletter/confirm?email=reader%40example.com&expi" });
    expect(await screen.findByText(MESSAGES.newsletterLinkIncomplete)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Confirm subscription" })).toBeNull();
    expect(api.calls.filter((call) => call.path === "/api/marketing/confirm")).toHaveLength(0);
  });

  it("shows the server's words for a link that is not valid", async () => {
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "POST /api/marketing/confirm": () => ({
        status: 400,
        body: { error: { code: "invalid_link", message: MESSAGES.newsletterLinkInvalid } },
      }),
    });
    await renderApp({ path: LINK });
    fireEvent.click(await screen.findByRole("button", { name: "Confirm subscription" }));
    expect(await screen.findByText(MESSAGES.newsletterLinkInvalid)).toBeTruthy();
  });
});
