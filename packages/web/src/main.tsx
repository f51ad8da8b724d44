import "./styles.css";
import { leadPicturePainted } from "./app/leadPicture.ts";

/**
 * The app's entry, kept small: the page's lead picture first (a banner, an artwork the server drew in the
 * frame), then the app's code. On a slow link the picture and some forty scripts shared the connections, and
 * the artwork waited for code it does not need to paint; a page without such a picture loads the code at once.
 * The wait is capped, so a very large picture does not hold the app back for long.
 */
const LEAD_PICTURE_MAX_MS = 1500;

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
// The frame the page arrived with stays on screen until the first page is ready (app/AppShell.tsx).
const sentFrame = container.innerHTML.trim();
void leadPicturePainted(container, LEAD_PICTURE_MAX_MS)
  .then(() => import("./app/start.tsx"))
  .then(({ startApp }) => startApp(container, sentFrame))
  .catch(() => {
    // The app's code did not arrive (a dropped connection, a deploy in between): no React to say it with.
    const main = document.createElement("main");
    main.className = "flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center";
    main.innerHTML =
      '<h1 class="text-2xl font-bold tracking-tight">Easel cannot start</h1><p>The app\'s code could not be loaded. <a class="underline" href="">Reload the page</a></p>';
    container.replaceChildren(main);
  });
