import { PageLoader } from "../ui/PageLoader.tsx";
import { sentFrameHtml } from "./frame.ts";

/**
 * What shows while the first page's code and data load: the frame the page arrived with, as it was. That is
 * index.html's header bar and spinner, with the page's lead picture where the server put it (a banner, an
 * artwork: packages/server/src/web/firstPaint.ts), so nothing blinks or moves until the page replaces it.
 */
export function AppShell() {
  const sentFrame = sentFrameHtml();
  if (!sentFrame) return <PageLoader />;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the markup the browser already parsed from this page
  return <div className="contents" dangerouslySetInnerHTML={{ __html: sentFrame }} />;
}
