import { describe, expect, it } from "vitest";
import { isMobileBrowser, MOBILE_WALLETS, mobileWalletLinks } from "./mobileWallets.ts";

const page = "https://easel.art/nft/0xAbC/7?tab=activity#bids";

describe("mobileWalletLinks", () => {
  it("opens the page itself in each wallet's browser", () => {
    const links = Object.fromEntries(mobileWalletLinks(page).map((link) => [link.id, link.href]));
    expect(links).toEqual({
      metamask: "https://metamask.app.link/dapp/easel.art/nft/0xAbC/7?tab=activity#bids",
      coinbase: `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(page)}`,
      trust: `https://link.trustwallet.com/open_url?coin_id=60&url=${encodeURIComponent(page)}`,
      rainbow: `https://rnbwapp.com/dapp?url=${encodeURIComponent(page)}`,
    });
  });

  it("gives back, once decoded, exactly the page (its query and port included)", () => {
    const tricky = "http://127.0.0.1:3000/explore?q=a%26b&sort=new";
    for (const link of mobileWalletLinks(tricky)) {
      const target = new URL(link.href);
      const carried =
        link.id === "metamask"
          ? `http://${link.href.slice("https://metamask.app.link/dapp/".length)}`
          : (target.searchParams.get(link.id === "coinbase" ? "cb_url" : "url") as string);
      expect(carried, link.name).toBe(tricky);
      expect(target.protocol).toBe("https:");
    }
  });

  it("names every wallet once, in the table's order", () => {
    expect(mobileWalletLinks(page).map((link) => link.name)).toEqual(MOBILE_WALLETS.map((w) => w.name));
    expect(new Set(MOBILE_WALLETS.map((w) => w.id)).size).toBe(MOBILE_WALLETS.length);
  });
});

describe("isMobileBrowser", () => {
  const nav = (userAgent: string, maxTouchPoints = 0) => ({ userAgent, maxTouchPoints });
  it("knows phones and tablets", () => {
    expect(
      isMobileBrowser(
        nav(
          "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
        ),
      ),
    ).toBe(true);
    expect(
      isMobileBrowser(
        nav(
          "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36",
        ),
      ),
    ).toBe(true);
    // iPadOS asks for the desktop site: a Mac with a touch screen.
    expect(
      isMobileBrowser(nav("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15", 5)),
    ).toBe(true);
  });

  it("leaves desktops alone", () => {
    expect(
      isMobileBrowser(nav("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15", 0)),
    ).toBe(false);
    expect(
      isMobileBrowser(nav("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36")),
    ).toBe(false);
  });
});
