import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { Toaster } from "sonner";
import { describe, expect, it } from "vitest";
import { fakeApi } from "../../../test/harness.tsx";
import { NEWSLETTER_SUCCESS, Newsletter, validateNewsletterEmail } from "./Newsletter.tsx";

function setup() {
  render(
    <>
      <Newsletter />
      <Toaster />
    </>,
  );
  const input = screen.getByLabelText("Get the latest Easel updates") as HTMLInputElement;
  const submit = screen.getByRole("button", { name: "Subscribe" });
  return { input, submit };
}

describe("newsletter", () => {
  it("validates with the spec's messages", () => {
    expect(validateNewsletterEmail("")).toBe("Required");
    expect(validateNewsletterEmail("   ")).toBe("Required");
    expect(validateNewsletterEmail("not-an-email")).toBe("invalid email address");
    expect(validateNewsletterEmail("a@b")).toBe("invalid email address");
    expect(validateNewsletterEmail("ada@example.com")).toBeNull();
  });

  it("shows 'Required' next to an empty field and sends nothing", async () => {
    const { calls } = fakeApi({});
    const { input, submit } = setup();
    fireEvent.click(submit);
    expect(await screen.findByText("Required")).toBeTruthy();
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(calls).toHaveLength(0);
  });

  it("shows 'invalid email address' for a malformed email", async () => {
    const { calls } = fakeApi({});
    const { input, submit } = setup();
    fireEvent.change(input, { target: { value: "ada@" } });
    fireEvent.click(submit);
    expect(await screen.findByText("invalid email address")).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it("shows the server's message when the subscribe endpoint fails (no faked success)", async () => {
    fakeApi({});
    const { input, submit } = setup();
    fireEvent.change(input, { target: { value: "ada@example.com" } });
    fireEvent.click(submit);
    expect(await screen.findByText("Route POST:/api/marketing/subscribe not found")).toBeTruthy();
    expect(screen.queryByText(NEWSLETTER_SUCCESS)).toBeNull();
    expect(input.value).toBe("ada@example.com");
  });

  it("thanks the subscriber and clears the field on success", async () => {
    const { calls } = fakeApi({ "POST /api/marketing/subscribe": () => ({ body: { ok: true } }) });
    const { input, submit } = setup();
    fireEvent.change(input, { target: { value: "ada@example.com" } });
    fireEvent.click(submit);
    expect(await screen.findByText(NEWSLETTER_SUCCESS)).toBeTruthy();
    await waitFor(() => expect(input.value).toBe(""));
    expect(calls[0]).toMatchObject({
      method: "POST",
      path: "/api/marketing/subscribe",
      body: { email: "ada@example.com" },
    });
  });
});
