// The router and the query cache: app/start.tsx evaluates them in a task after React's, and main.tsx fetches
// them beside it (build/appChunk.ts keeps them in a chunk of their own). Together the three were one long task.
export { QueryClient } from "@tanstack/react-query";
export { createBrowserRouter } from "react-router";
export { RouterProvider } from "react-router/dom";
