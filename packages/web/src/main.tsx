import "./styles.css";
import { leadPainted } from "./app/leadPicture.ts";

/**
 * The app's entry, kept small: the page's lead first (a banner, an artwork, the home page's hero: what the
 * server drew in the frame), then the app's code. On a slow link the picture and some forty scripts shared the
 * connections, and the artwork waited for code it does not need to paint; a page without a lead loads the code
 * at once. The wait is capped, so a very large picture does not hold the app back for long.
 */
const LEAD_MAX_MS = 1500;

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
// The frame the page arrived with stays on screen until the first page is ready (app/AppShell.tsx).
const sentFrame = container.innerHTML.trim();
void leadPainted(container, LEAD_MAX_MS)
  .then(() => {
    // The page's own code, which the server names rather than preloads when the page has a lead
    // (packages/server/src/web/firstPaint.ts), fetched beside the app's.
    const names = document.getElementById("easel-page-code")?.textContent;
    for (const href of names ? (JSON.parse(names) as string[]) : []) {
      const link = Object.assign(document.createElement("link"), { rel: "modulepreload", href });
      link.crossOrigin = "";
      document.head.append(link);
    }
    return import("./app/start.tsx");
  })
  .then(({ startApp }) => startApp(container, sentFrame))
  .catch(() => {
    // The app's code did not arrive (a dropped connection, a deploy in between): no React to say it with.
    const main = document.createElement("main");
    main.className = "flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center";
    main.innerHTML =
      '<h1 class="text-2xl font-bold tracking-tight">Easel cannot start</h1><p>The app\'s code could not be loaded. <a class="underline" href="">Reload the page</a></p>';
    container.replaceChildren(main);
  });
