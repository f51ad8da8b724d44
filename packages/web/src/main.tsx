import "./styles.css";
import { setMediaBase } from "@easel/common";
import { QueryClient } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { keepSentFrame, leadPicturePainted } from "./app/AppShell.tsx";
import { Providers } from "./app/Providers.tsx";
import { routes } from "./app/routes.tsx";
import { StartupError } from "./app/StartupError.tsx";
import { loadPublicConfig } from "./lib/config.ts";

function rootElement(): HTMLElement {
  const element = document.getElementById("root");
  if (!element) throw new Error("index.html has no #root element");
  return element;
}
const container = rootElement();
// The frame the page arrived with stays on screen until the first page is ready (app/AppShell.tsx).
keepSentFrame(container);
const root = createRoot(container);

async function start() {
  let config: Awaited<ReturnType<typeof loadPublicConfig>>;
  try {
    // The server's frame may hold the page's picture: it paints before the app takes over (at most 0.5 s).
    [config] = await Promise.all([loadPublicConfig(), leadPicturePainted(container, 500)]);
  } catch (error) {
    root.render(<StartupError error={error} onRetry={start} />);
    return;
  }
  // Media loads from its own origin when the server names one (MEDIA_PUBLIC_URL).
  setMediaBase(config.mediaUrl);
  const queryClient = new QueryClient({
    defaultOptions: { queries: { refetchOnWindowFocus: true, retry: 1 } },
  });
  const router = createBrowserRouter(routes);
  root.render(
    <StrictMode>
      <Providers config={config} queryClient={queryClient}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
}

void start();
