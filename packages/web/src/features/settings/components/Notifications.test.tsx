import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeApi } from "../../../test/harness.tsx";
import { NotificationList } from "./Notifications.tsx";

function renderList() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <NotificationList />
    </QueryClientProvider>,
  );
}

describe("notification list", () => {
  it("shows the notifications, then marks them seen", async () => {
    const api = fakeApi({
      "GET /api/profile/notifications": () => ({
        body: {
          data: {
            notificationsTemp: [
              { _id: "n1", kind: "follow", message: "Grace followed you.", time: 1_700_000_000, seen: false },
              { _id: "n2", kind: "sale", message: "Your item sold.", time: 1_690_000_000, seen: true },
            ],
            numberOfNewNotif: 1,
          },
        },
      }),
      "PUT /api/profile/notifications/seen": () => ({ body: { data: { updated: 1, numberOfNewNotif: 0 } } }),
    });
    renderList();
    expect(await screen.findByText("Grace followed you.")).toBeTruthy();
    expect(screen.getByText("Your item sold.")).toBeTruthy();
    expect(screen.getByText("New:")).toBeTruthy();
    await vi.waitFor(() =>
      expect(
        api.calls.some((call) => call.method === "PUT" && call.path === "/api/profile/notifications/seen"),
      ).toBe(true),
    );
  });

  it("shows the artwork's name as the server wrote it, as text even when it looks like markup", async () => {
    fakeApi({
      "GET /api/profile/notifications": () => ({
        body: {
          data: {
            notificationsTemp: [
              {
                _id: "n1",
                kind: "sale",
                message: "Your “Tide <b>&</b> foam” sold for 1 ETH; you receive 0.9 ETH.",
                time: 1_700_000_000,
                seen: true,
              },
            ],
            numberOfNewNotif: 0,
          },
        },
      }),
    });
    renderList();
    const text = await screen.findByText("Your “Tide <b>&</b> foam” sold for 1 ETH; you receive 0.9 ETH.");
    expect(text.querySelector("b")).toBeNull();
  });

  it("sends no seen update when nothing is new", async () => {
    const api = fakeApi({
      "GET /api/profile/notifications": () => ({
        body: { data: { notificationsTemp: [], numberOfNewNotif: 0 } },
      }),
    });
    renderList();
    expect(await screen.findByText("You have no notifications yet.")).toBeTruthy();
    expect(api.calls.some((call) => call.method === "PUT")).toBe(false);
  });
});
