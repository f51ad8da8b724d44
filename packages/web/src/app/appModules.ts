// The app's own modules the start needs (app/start.tsx imports them apart from the framework, so that the
// two are evaluated in two tasks, not one long one; build/appChunk.ts keeps them in one chunk).
export { Providers } from "./Providers.tsx";
export { routes } from "./routes.tsx";
export { StartupError } from "./StartupError.tsx";
