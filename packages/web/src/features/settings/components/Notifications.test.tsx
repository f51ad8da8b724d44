import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { fakeApi } from "../../../test/harness.tsx";
import { NotificationList } from "./Notifications.tsx";

function renderList() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <NotificationList />
      </MemoryRouter>
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
              {
                _id: "n1",
                kind: "follow",
                message: "Grace followed you.",
                time: 1_700_000_000,
                seen: false,
                link: null,
              },
              {
                _id: "n2",
                kind: "sale",
                message: "Your item sold.",
                time: 1_690_000_000,
                seen: true,
                link: null,
              },
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
                link: null,
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

  it("links each notification to the page it speaks of, and leaves one without a page as text", async () => {
    const ITEM = "/0x70997970c51812dc3a010c7d01b50e0d17dc79c8/Sunsets/3";
    fakeApi({
      "GET /api/profile/notifications": () => ({
        body: {
          data: {
            notificationsTemp: [
              {
                _id: "n1",
                kind: "outbid",
                message:
                  "You were outbid on “Dusk” by Grace: the top bid is now 1.2 ETH; 1 ETH was refunded.",
                time: 1_700_000_000,
                seen: true,
                link: ITEM,
              },
              {
                _id: "n2",
                kind: "follow",
                message: "Grace started following you.",
                time: 1_690_000_000,
                seen: true,
                link: "/profile/0x15d34aaf54267db7d7c367839aaf71a00a2c6a65",
              },
              {
                _id: "n3",
                kind: "application_rejected",
                message: "Your artist application was not approved this time.",
                time: 1_680_000_000,
                seen: true,
                link: null,
              },
            ],
            numberOfNewNotif: 0,
          },
        },
      }),
    });
    renderList();
    const outbid = await screen.findByRole("link", { name: /You were outbid on “Dusk” by Grace/ });
    expect(outbid.getAttribute("href")).toBe(ITEM);
    expect(screen.getByRole("link", { name: "Grace started following you." }).getAttribute("href")).toBe(
      "/profile/0x15d34aaf54267db7d7c367839aaf71a00a2c6a65",
    );
    expect(screen.getByText("Your artist application was not approved this time.").closest("a")).toBeNull();
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
