import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { describe, expect, it, vi } from "vitest";
import { fakeApi } from "../../../test/harness.tsx";
import { ApplicationForm } from "./Application.tsx";

function setup(onDone = vi.fn()) {
  const router = createMemoryRouter([
    { path: "/", element: <ApplicationForm application={null} onDone={onDone} onCancel={() => {}} /> },
  ]);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return onDone;
}

describe("artist application form", () => {
  it("shows the spec's messages for every required field", async () => {
    setup();
    fireEvent.click(screen.getByRole("button", { name: "Submit application" }));
    expect(await screen.findByText("ProfileURL Is Required")).toBeTruthy();
    expect(screen.getByText("Name Is Required")).toBeTruthy();
    expect(screen.getByText("Email Is Required")).toBeTruthy();
    expect(screen.getByText("Enter your number")).toBeTruthy();
    // The role select's placeholder option reads the same words; the error is the second.
    expect(screen.getAllByText("Select your role")).toHaveLength(2);
    expect(screen.getAllByText("It Is Required!")).toHaveLength(2);
  });

  it("enforces the length limits and sends a complete application", async () => {
    const api = fakeApi({
      "POST /api/artist-applications": () => ({
        body: { message: "Thank you! we will be in touch soon.", data: { application: null } },
      }),
    });
    const onDone = setup();
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "n".repeat(51) } });
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: `${"e".repeat(45)}@example.com` } });
    fireEvent.change(screen.getByLabelText("Tell us about your work"), {
      target: { value: "d".repeat(1501) },
    });
    fireEvent.click(screen.getByRole("button", { name: "Submit application" }));
    expect(await screen.findByText("Name Must Be maximum 50 Character")).toBeTruthy();
    expect(screen.getByText("Email Must Be maximum 50 Character")).toBeTruthy();
    expect(screen.getByText("Description Must Be maximum 1500 Character")).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Profile URL"), { target: { value: "https://grace.example" } });
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Grace" } });
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "grace@example.com" } });
    fireEvent.change(screen.getByLabelText("Phone"), { target: { value: "+44 20 7946 0000" } });
    fireEvent.change(screen.getByLabelText("Role"), { target: { value: "artistFoundation" } });
    fireEvent.change(screen.getByLabelText("Tell us about your work"), { target: { value: "Ink." } });
    fireEvent.click(screen.getByLabelText(/I own the rights/));
    fireEvent.click(screen.getByLabelText(/I accept the/));
    fireEvent.click(screen.getByRole("button", { name: "Submit application" }));
    await vi.waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(api.calls.find((call) => call.path === "/api/artist-applications")?.body).toMatchObject({
      profileURL: "https://grace.example",
      name: "Grace",
      email: "grace@example.com",
      role: "artistFoundation",
      rights: true,
      terms: true,
    });
  });
});
