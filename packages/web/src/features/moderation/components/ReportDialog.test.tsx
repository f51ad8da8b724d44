import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { Toaster } from "sonner";
import { describe, expect, it } from "vitest";
import { fakeApi } from "../../../test/harness.tsx";
import { ReportSteps } from "./ReportDialog.tsx";

const TARGET = "0x00000000000000000000000000000000000a11ce";

function setup() {
  render(
    <>
      <ReportSteps targetType="profile" targetId={TARGET} defaultEmail="" onDone={() => {}} />
      <Toaster />
    </>,
  );
}

describe("report dialog", () => {
  it("warns 'Please, select a reason.' when Continue is pressed without a reason", async () => {
    setup();
    const next = screen.getByRole("button", { name: "Continue" });
    expect(next.getAttribute("aria-disabled")).toBe("true");
    fireEvent.click(next);
    expect((await screen.findAllByText("Please, select a reason.")).length).toBeGreaterThan(0);
    expect(screen.queryByLabelText("Email")).toBeNull();
  });

  it("shows the spec's messages for email and description, then the intended success text", async () => {
    const api = fakeApi({
      "POST /api/reports": () => ({
        body: {
          message:
            "Your report has been registered. We will follow and check it and take the necessary action.",
          data: { _id: "r1" },
        },
      }),
    });
    setup();
    fireEvent.click(screen.getByLabelText("Hateful or Abusive Content"));
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));

    fireEvent.click(await screen.findByRole("button", { name: "Submit" }));
    expect(await screen.findByText("Email is required.")).toBeTruthy();
    expect(screen.getByText("Description is required")).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "not-an-email" } });
    fireEvent.change(screen.getByLabelText("Issue description"), { target: { value: "short" } });
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByText("Invalid email address")).toBeTruthy();
    expect(screen.getByText("description must be at least 10 characters.")).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Issue description"), { target: { value: "x".repeat(501) } });
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByText("description must be 500 characters maximum.")).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "ada@example.com" } });
    fireEvent.change(screen.getByLabelText("Issue description"), {
      target: { value: "A copy of someone else's artwork." },
    });
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(
      await screen.findByText(
        "Your report has been registered. We will follow and check it and take the necessary action.",
      ),
    ).toBeTruthy();
    expect(api.calls.find((call) => call.path === "/api/reports")?.body).toEqual({
      reason: "Hateful or Abusive Content",
      email: "ada@example.com",
      description: "A copy of someone else's artwork.",
      targetType: "profile",
      targetId: TARGET,
    });
  });

  it("shows the server's field message when the server refuses", async () => {
    fakeApi({
      "POST /api/reports": () => ({
        status: 400,
        body: {
          error: {
            code: "validation",
            message: "Invalid email address",
            fields: { email: "Invalid email address" },
          },
        },
      }),
    });
    setup();
    fireEvent.click(screen.getByLabelText("Other Suspicious Activity"));
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    fireEvent.change(await screen.findByLabelText("Email"), { target: { value: "ada@example.com" } });
    fireEvent.change(screen.getByLabelText("Issue description"), {
      target: { value: "Something odd here." },
    });
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    await waitFor(() => expect(screen.getByText("Invalid email address")).toBeTruthy());
  });
});
