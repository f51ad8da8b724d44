/**
 * The phone wallets that open a web page in their own browser, where the page then finds an injected wallet.
 * Each link is the wallet's universal link: it opens the app when installed, else its download page. They need
 * no service of Easel's and no WalletConnect project: this table is all there is.
 *
 * Formats, as each wallet documents them (checked November 2026):
 * - MetaMask: `https://metamask.app.link/dapp/{host}{path}`, the URL without its scheme, not encoded.
 * - Coinbase Wallet: `https://go.cb-w.com/dapp?cb_url={encoded URL}` (also what Reown's AppKit uses).
 * - Trust Wallet: `https://link.trustwallet.com/open_url?coin_id=60&url={encoded URL}` (60: Ethereum).
 * - Rainbow: `https://rnbwapp.com/dapp?url={encoded URL}` (the app's `dapp` deep link opens its browser).
 */
export const MOBILE_WALLETS = [
  {
    id: "metamask",
    name: "MetaMask",
    link: (url: URL) => `https://metamask.app.link/dapp/${url.host}${url.pathname}${url.search}${url.hash}`,
  },
  {
    id: "coinbase",
    name: "Coinbase Wallet",
    link: (url: URL) => `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(url.href)}`,
  },
  {
    id: "trust",
    name: "Trust Wallet",
    link: (url: URL) =>
      `https://link.trustwallet.com/open_url?coin_id=60&url=${encodeURIComponent(url.href)}`,
  },
  {
    id: "rainbow",
    name: "Rainbow",
    link: (url: URL) => `https://rnbwapp.com/dapp?url=${encodeURIComponent(url.href)}`,
  },
] as const satisfies readonly { id: string; name: string; link: (url: URL) => string }[];

export type MobileWallet = (typeof MOBILE_WALLETS)[number];

/** Each wallet with the link that opens `page` in its browser. */
export function mobileWalletLinks(
  page: string | URL,
): { id: MobileWallet["id"]; name: string; href: string }[] {
  const url = new URL(page);
  return MOBILE_WALLETS.map((wallet) => ({ id: wallet.id, name: wallet.name, href: wallet.link(url) }));
}

/**
 * Whether this browser is a phone's or a tablet's (where wallets are apps, not browser extensions): the
 * browser's own answer when it gives one (User-Agent Client Hints), else its user agent; an iPad that says it is a
 * Mac is told by its touch screen.
 */
export function isMobileBrowser(
  nav: Pick<Navigator, "userAgent" | "maxTouchPoints"> | undefined = globalThis.navigator,
): boolean {
  if (!nav) return false;
  const hints = (nav as { userAgentData?: { mobile?: boolean } }).userAgentData;
  if (hints?.mobile) return true;
  if (/Android|iPhone|iPad|iPod|Mobi/i.test(nav.userAgent)) return true;
  return /Macintosh/.test(nav.userAgent) && nav.maxTouchPoints > 1;
}
