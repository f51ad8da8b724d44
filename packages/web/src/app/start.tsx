import { setMediaBase } from "@easel/common";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
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
  // React (this module's imports), the router and the query cache, and the app's own modules are evaluated
  // in three tasks: together they were one long task. Not arriving, they fail the start as this module would
  // (main.tsx says so).
  const framework = import("./framework.ts");
  return nextTask()
    .then(() => framework)
    .then(async ({ QueryClient, createBrowserRouter, RouterProvider }) => {
      await nextTask();
      return { QueryClient, createBrowserRouter, RouterProvider, ...(await import("./appModules.ts")) };
    })
    .then(({ QueryClient, createBrowserRouter, RouterProvider, Providers, routes, StartupError }) => {
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
