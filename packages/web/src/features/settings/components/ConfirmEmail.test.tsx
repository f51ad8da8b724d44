import { MESSAGES } from "@easel/common";
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi, renderApp, SIGNED_OUT, sessionRoute } from "../../../test/harness.tsx";

const ADDRESS = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const LINK = `/email/confirm?address=${ADDRESS}&email=owner%40example.com&expires=1900000000&sig=abc`;
const CONFIRM = "/api/profile/email/confirm";

describe("confirming a profile's email", () => {
  it("confirms only when the button is pressed, with the link's values", async () => {
    const api = fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      [`POST ${CONFIRM}`]: () => ({ body: { message: MESSAGES.emailConfirmed } }),
    });
    await renderApp({ path: LINK });
    await screen.findByRole("heading", { level: 1, name: "Confirm your email" });
    expect(screen.getByText("owner@example.com")).toBeTruthy();
    expect(api.calls.filter((call) => call.path === CONFIRM)).toHaveLength(0);
    fireEvent.click(screen.getByRole("button", { name: "Confirm email" }));
    expect(await screen.findByText(MESSAGES.emailConfirmed)).toBeTruthy();
    const [call] = api.calls.filter((c) => c.path === CONFIRM);
    expect(call?.body).toEqual({
      address: ADDRESS,
      email: "owner@example.com",
      expires: 1900000000,
      sig: "abc",
    });
  });

  it("says in words that a link cut short is incomplete, and sends nothing", async () => {
    const api = fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ path: `/email/confirm?address=${ADDRESS}&email=owner%40example.com&expi` });
    expect(await screen.findByText(MESSAGES.emailLinkIncomplete)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Confirm email" })).toBeNull();
    expect(api.calls.filter((call) => call.path === CONFIRM)).toHaveLength(0);
  });

  it("shows the server's words for a link that is not valid", async () => {
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      [`POST ${CONFIRM}`]: () => ({
        status: 400,
        body: { error: { code: "invalid_link", message: MESSAGES.emailLinkInvalid } },
      }),
    });
    await renderApp({ path: LINK });
    fireEvent.click(await screen.findByRole("button", { name: "Confirm email" }));
    expect(await screen.findByText(MESSAGES.emailLinkInvalid)).toBeTruthy();
  });
});
