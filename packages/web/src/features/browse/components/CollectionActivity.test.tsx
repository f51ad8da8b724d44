import type { ActivityRow } from "@easel/common";
import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { AppConfigProvider } from "../../../api/appConfig.tsx";
import { LOCAL_CONFIG } from "../../../test/harness.tsx";
import { ActivityTable } from "./CollectionActivity.tsx";

const SELLER = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const BUYER = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";

describe("ActivityTable", () => {
  it("names each item by its title and each person as their profile does", () => {
    const rows: ActivityRow[] = [
      {
        kind: "sale",
        tokenId: "4",
        itemName: "Dusk over the pier",
        from: SELLER,
        to: BUYER,
        fromPerson: { address: SELLER, name: "Ada Lovelace", username: "ada", ens: null },
        toPerson: { address: BUYER, name: null, username: null, ens: null },
        priceWei: "1000000000000000000",
        txHash: `0x${"ab".repeat(32)}`,
        time: "2026-11-20T10:00:00.000Z",
      },
    ];
    render(
      <AppConfigProvider config={LOCAL_CONFIG}>
        <MemoryRouter>
          <ActivityTable rows={rows} itemPath={(id) => `/item/${id}`} caption="Activity" />
        </MemoryRouter>
      </AppConfigProvider>,
    );
    const row = screen.getAllByRole("row")[1] as HTMLElement;
    expect(within(row).getByRole("link", { name: "Dusk over the pier" }).getAttribute("href")).toBe(
      "/item/4",
    );
    expect(within(row).getByRole("link", { name: "Ada Lovelace" }).getAttribute("href")).toBe(
      `/profile/${SELLER}`,
    );
    expect(within(row).getByRole("link", { name: "0x90…b906" })).toBeTruthy();
  });
});
