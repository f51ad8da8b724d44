import { fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { COLLECTION, CREATOR } from "../../../test/items.ts";
import { BULK_RESULT_TEXT, BulkListingResult } from "./BulkListingResult.tsx";

const work = (tokenId: string, name: string) => ({
  collection: COLLECTION,
  collectionName: "Studio Works",
  tokenId,
  name,
  imageCid: null,
  path: `/${CREATOR}/Studio%20Works/${tokenId}`,
  signedPriceWei: null,
});
const order = (tokenId: string, price: string) => ({
  collection: COLLECTION,
  tokenId,
  price,
  seller: CREATOR,
  transferCount: "1",
  counter: "0",
  expiresAt: "1900000000",
  maxFeeBps: 1000,
});

describe("BulkListingResult", () => {
  it("shows the works listed with their prices and those refused with the reason", () => {
    const again = vi.fn();
    const sent = [work("1", "Harbour at Dawn"), work("2", "Quay at Noon"), work("3", "Dock at Dusk")];
    const result = {
      stored: [
        {
          id: "a",
          order: order("1", "250000000000000000"),
          status: "active" as const,
          createdAt: "2026-01-01T00:00:00Z",
        },
        {
          id: "b",
          order: order("3", "250000000000000000"),
          status: "active" as const,
          createdAt: "2026-01-01T00:00:00Z",
        },
      ],
      refused: [{ index: 1, tokenId: "2", message: "Only the owner of this item can list it." }],
    };
    const router = createMemoryRouter(
      [{ path: "/", element: <BulkListingResult result={result} sent={sent} onAgain={again} /> }],
      { initialEntries: ["/"] },
    );
    render(<RouterProvider router={router} />);
    expect(screen.getByRole("heading", { name: BULK_RESULT_TEXT.listed(2) })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Harbour at Dawn" }).getAttribute("href")).toBe(
      `/${CREATOR}/Studio%20Works/1`,
    );
    expect(screen.getAllByText("0.25 ETH")).toHaveLength(2);
    expect(screen.getByRole("heading", { name: BULK_RESULT_TEXT.refused(1) })).toBeTruthy();
    expect(screen.getByText("Quay at Noon")).toBeTruthy();
    expect(screen.getByText(/Only the owner of this item can list it\./)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: BULK_RESULT_TEXT.again }));
    expect(again).toHaveBeenCalledOnce();
  });
});
