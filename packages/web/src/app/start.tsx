import { setMediaBase } from "@easel/common";
import { QueryClient } from "@tanstack/react-query";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { loadPublicConfig } from "../lib/config.ts";
import { setSentFrame } from "./frame.ts";
import { fetchInterForLater } from "./interLater.ts";

/**
 * Lets the browser run what waits (a paint, a tap, a network answer) before the next step of the start. A
 * phone runs the start's steps many times slower than a desktop: in one task they held the page for a long
 * moment, in several each is short.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The app in `container`, once main.tsx has let the page's lead picture paint; `sentFrame` is the markup the
 * page arrived with, shown until the first page is ready (AppShell.tsx).
 */
export function startApp(container: HTMLElement, sentFrame: string): Promise<void> {
  setSentFrame(sentFrame);
  // The app's own modules are evaluated in a task after the framework's (this module's imports): together
  // they were one long task. Not arriving, they fail the start as this module would (main.tsx says so).
  return import("./appModules.ts").then(({ Providers, routes, StartupError }) => {
    const root = createRoot(container);
    const start = async () => {
      let config: Awaited<ReturnType<typeof loadPublicConfig>>;
      try {
        config = await loadPublicConfig();
      } catch (error) {
        root.render(<StartupError error={error} onRetry={start} />);
        return;
      }
      // Media loads from its own origin when the server names one (MEDIA_PUBLIC_URL).
      setMediaBase(config.mediaUrl);
      // The app's code has just been evaluated; the router reads the route table and the URL in a task of
      // its own.
      await nextTask();
      const queryClient = new QueryClient({
        defaultOptions: { queries: { refetchOnWindowFocus: true, retry: 1 } },
      });
      const router = createBrowserRouter(routes);
      await nextTask();
      // Rendered as a transition, React yields to the browser every few milliseconds instead of drawing the
      // whole page in one long task: the frame the page arrived with stays on screen meanwhile, and a tap on
      // it is not held up behind the render.
      startTransition(() =>
        root.render(
          <StrictMode>
            <Providers config={config} queryClient={queryClient}>
              <RouterProvider router={router} />
            </Providers>
          </StrictMode>,
        ),
      );
    };
    void start();
    fetchInterForLater();
  });
}
