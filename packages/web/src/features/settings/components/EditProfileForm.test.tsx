import type { ProfileUser } from "@easel/common";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { Toaster } from "sonner";
import { describe, expect, it, vi } from "vitest";
import { ALICE, fakeApi } from "../../../test/harness.tsx";
import { EditProfileForm } from "./EditProfileForm.tsx";

const USER: ProfileUser = {
  _id: "u1",
  address: ALICE.toLowerCase(),
  name: "Alice",
  username: "alice",
  ens: null,
  bio: null,
  avatar: null,
  banner: null,
  email: null,
  emailVerified: false,
  social: {},
  active: true,
  time_update: "2023-01-01T00:00:00.000Z",
};

function setup(user: ProfileUser = USER, ensAvailable = false) {
  const router = createMemoryRouter([
    { path: "/profile/edit/alice", element: <EditProfileForm user={user} ensAvailable={ensAvailable} /> },
    { path: "/profile", element: <h1>Own profile</h1> },
  ]);
  router.navigate("/profile/edit/alice");
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return router;
}

describe("profile edit form", () => {
  it("starts from the saved profile", () => {
    setup();
    expect((screen.getByLabelText("Display name") as HTMLInputElement).value).toBe("Alice");
    expect((screen.getByLabelText("Username") as HTMLInputElement).value).toBe("alice");
  });

  it("shows the spec's limits and the shared schema's messages", async () => {
    const api = fakeApi({});
    setup();
    fireEvent.change(screen.getByLabelText("Display name"), { target: { value: "n".repeat(31) } });
    fireEvent.change(screen.getByLabelText("Username"), { target: { value: "u".repeat(31) } });
    fireEvent.change(screen.getByLabelText("Bio"), { target: { value: "b".repeat(151) } });
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "nope" } });
    fireEvent.change(screen.getByLabelText("Website"), { target: { value: "javascript:alert(1)" } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("name must be maximum 30 characters")).toBeTruthy();
    expect(screen.getByText("username must be maximum 30 characters")).toBeTruthy();
    expect(screen.getByText("bio must be maximum 150 characters")).toBeTruthy();
    expect(screen.getByText("Invalid email address")).toBeTruthy();
    expect(screen.getByText("Must be a link starting with http:// or https://")).toBeTruthy();
    expect(api.calls.some((call) => call.method === "PUT")).toBe(false);

    fireEvent.change(screen.getByLabelText("Display name"), { target: { value: "Ålice" } });
    fireEvent.change(screen.getByLabelText("Username"), { target: { value: "0xalice" } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("Only English characters are allowed")).toBeTruthy();
    expect(screen.getByText("username must not start with 0x")).toBeTruthy();
  });

  it("refuses an image of 10 MB or more before cropping", async () => {
    setup();
    const file = new File(["x"], "huge.png", { type: "image/png" });
    Object.defineProperty(file, "size", { value: 10_000_000 });
    fireEvent.change(screen.getByLabelText("Avatar"), { target: { files: [file] } });
    expect(await screen.findByText("File Must be less than 10MB")).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("saves, says so and goes to /profile; a taken username shows under its field", async () => {
    let taken = true;
    const api = fakeApi({
      "PUT /api/profile": () =>
        taken
          ? {
              status: 400,
              body: {
                error: {
                  code: "username_taken",
                  message: "This username is already taken.",
                  fields: { username: "This username is already taken." },
                },
              },
            }
          : { body: { message: "Profile updated successfully.", data: { user: USER } } },
    });
    const router = setup();
    fireEvent.change(screen.getByLabelText("Bio"), { target: { value: "Painter." } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    expect((await screen.findAllByText("This username is already taken.")).length).toBeGreaterThan(0);

    taken = false;
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("Profile updated successfully.")).toBeTruthy();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe("/profile"));
    expect(api.calls.filter((call) => call.method === "PUT").at(-1)?.body).toMatchObject({
      name: "Alice",
      username: "alice",
      bio: "Painter.",
      email: null,
    });
  });

  it("offers the ENS field only where the chain has ENS", () => {
    setup();
    expect(screen.queryByLabelText("ENS")).toBeNull();
  });

  it("says an email is not confirmed yet and mails the link again on request", async () => {
    const api = fakeApi({
      "POST /api/profile/email/confirmation": () => ({
        body: {
          message: "We sent a confirmation link to your email. Open it to receive notifications by email.",
        },
      }),
    });
    setup({ ...USER, email: "alice@example.com", emailVerified: false }, true);
    expect(screen.getByLabelText("ENS")).toBeTruthy();
    expect(screen.getByText(/Not confirmed yet: open the link we mailed to alice@example.com/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Send the link again" }));
    expect(await screen.findByText(/We sent a confirmation link to your email/)).toBeTruthy();
    expect(
      api.calls.some((call) => call.method === "POST" && call.path === "/api/profile/email/confirmation"),
    ).toBe(true);
  });
});
