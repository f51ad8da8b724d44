import "./styles.css";
import { QueryClient } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { keepSentFrame } from "./app/AppShell.tsx";
import { Providers } from "./app/Providers.tsx";
import { routes } from "./app/routes.tsx";
import { StartupError } from "./app/StartupError.tsx";
import { loadPublicConfig } from "./lib/config.ts";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
// The frame the page arrived with stays on screen until the first page is ready (app/AppShell.tsx).
keepSentFrame(container);
const root = createRoot(container);

async function start() {
  let config: Awaited<ReturnType<typeof loadPublicConfig>>;
  try {
    config = await loadPublicConfig();
  } catch (error) {
    root.render(<StartupError error={error} onRetry={start} />);
    return;
  }
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
