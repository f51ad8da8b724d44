import { fireEvent, render, screen } from "@testing-library/react";
import { Toaster } from "sonner";
import { describe, expect, it } from "vitest";
import { fakeApi } from "../../../test/harness.tsx";
import { ContactForm } from "./ContactForm.tsx";

describe("contact form", () => {
  it("shows the spec's messages and sends a valid message", async () => {
    const api = fakeApi({
      "POST /api/contact": () => ({ body: { message: "Thank you! Your message has been sent." } }),
    });
    render(
      <>
        <ContactForm />
        <Toaster />
      </>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Send message" }));
    expect(await screen.findByText("Name must be atleast 3 characters")).toBeTruthy();
    expect(screen.getByText("Email is required.")).toBeTruthy();
    expect(screen.getByText("Message is required")).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Al" } });
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "al@example" } });
    fireEvent.click(screen.getByRole("button", { name: "Send message" }));
    expect(await screen.findByText("Invalid email address")).toBeTruthy();
    expect(screen.getByText("Name must be atleast 3 characters")).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Alan" } });
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "alan@example.com" } });
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "Hello Easel" } });
    fireEvent.click(screen.getByRole("button", { name: "Send message" }));
    expect((await screen.findAllByText("Thank you! Your message has been sent.")).length).toBeGreaterThan(0);
    expect(api.calls.find((call) => call.path === "/api/contact")?.body).toEqual({
      name: "Alan",
      email: "alan@example.com",
      message: "Hello Easel",
    });
    expect((screen.getByLabelText("Name") as HTMLInputElement).value).toBe("");
  });
});
