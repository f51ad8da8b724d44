import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi, LOCAL_CONFIG, renderApp } from "../../../test/harness.tsx";
import { WithWallet } from "../../../web3/walletLoader.tsx";
import { HeldPayments } from "./HeldPayments.tsx";

const BANNED = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
const EMPTIED = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
const TX = `0x${"ab".repeat(32)}`;
const config = { ...LOCAL_CONFIG, contracts: { market: "0x5fbdb2315678afecb367f032d93f642f64180aa3" } };
const routes = [
  {
    path: "/",
    element: (
      <WithWallet>
        <HeldPayments />
      </WithWallet>
    ),
  },
];

describe("Held payments", () => {
  it("lists each banned payee's held, released and forfeited amounts, with the last transaction", async () => {
    fakeApi({
      "GET /api/admin/held": () => ({
        body: {
          totalHeldWei: "50000000000000000",
          data: [
            {
              account: BANNED,
              person: { address: BANNED, name: null, username: null, ens: null },
              heldWei: "50000000000000000",
              releasedWei: "0",
              forfeitedWei: "20000000000000000",
              lastTx: TX,
              lastAt: "2026-11-25T10:00:00.000Z",
            },
            {
              account: EMPTIED,
              person: { address: EMPTIED, name: "Emma", username: "emma", ens: null },
              heldWei: "0",
              releasedWei: "30000000000000000",
              forfeitedWei: "0",
              lastTx: TX,
              lastAt: "2026-11-24T10:00:00.000Z",
            },
          ],
        },
      }),
    });
    await renderApp({ routes, config });
    const table = await screen.findByRole("table", { name: "Held payments" });
    expect(screen.getByText("Held now in total: 0.05 ETH")).toBeTruthy();
    const [, first, second] = within(table).getAllByRole("row");
    expect(
      within(first as HTMLElement)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(expect.arrayContaining(["0.05 ETH", "0 ETH", "0.02 ETH"]));
    expect(within(first as HTMLElement).getByText(TX)).toBeTruthy();
    // Each payee as Easel names people: their profile's name, else the short address.
    expect(within(first as HTMLElement).getByRole("link", { name: "0x90…b906" })).toBeTruthy();
    expect(
      within(second as HTMLElement)
        .getByRole("link", { name: "Emma" })
        .getAttribute("href"),
    ).toBe(`/profile/${EMPTIED}`);
    expect(within(second as HTMLElement).getByRole("button", { name: "Release for Emma" })).toBeTruthy();
    // Nothing held: nothing to release or forfeit.
    expect(
      (within(second as HTMLElement).getByRole("button", { name: /Release for/ }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
    expect(
      (within(second as HTMLElement).getByRole("button", { name: /Forfeit for/ }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
    expect(
      (within(first as HTMLElement).getByRole("button", { name: /Release for/ }) as HTMLButtonElement)
        .disabled,
    ).toBe(false);
  });

  it("asks before a forfeit, which cannot be undone", async () => {
    fakeApi({
      "GET /api/admin/held": () => ({
        body: {
          totalHeldWei: "50000000000000000",
          data: [
            {
              account: BANNED,
              person: { address: BANNED, name: null, username: null, ens: null },
              heldWei: "50000000000000000",
              releasedWei: "0",
              forfeitedWei: "0",
              lastTx: TX,
              lastAt: "2026-11-25T10:00:00.000Z",
            },
          ],
        },
      }),
    });
    await renderApp({ routes, config });
    fireEvent.click(await screen.findByRole("button", { name: /Forfeit for/ }));
    const question = screen.getByRole("alertdialog", { name: /Forfeit for/ });
    expect(question.textContent).toMatch(
      /Forfeit 0\.05 ETH held for 0x90…b906\? .*cannot be paid to them afterwards/,
    );
    fireEvent.click(within(question).getByRole("button", { name: "Keep it held" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(screen.getByRole("button", { name: /Release for/ })).toBeTruthy();
  });

  it("says when the market holds nothing", async () => {
    fakeApi({ "GET /api/admin/held": () => ({ body: { totalHeldWei: "0", data: [] } }) });
    await renderApp({ routes, config });
    expect(await screen.findByText("The market holds no payment.")).toBeTruthy();
  });
});
