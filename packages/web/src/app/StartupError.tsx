import { useState } from "react";
import { errorMessage } from "../api/client.ts";
import { Button } from "../ui/Button.tsx";
import { LogoMark } from "../ui/Logo.tsx";

/** Shown when the app cannot load its configuration from the server (GET /api/config). */
export function StartupError({ error, onRetry }: { error: unknown; onRetry: () => Promise<void> }) {
  const [retrying, setRetrying] = useState(false);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <LogoMark className="size-12" />
      <h1 className="text-2xl font-bold tracking-tight">Easel cannot start</h1>
      <p className="max-w-md text-neutral-600 dark:text-neutral-400">
        The app could not load its configuration from the Easel server: {errorMessage(error)}
      </p>
      <Button
        loading={retrying}
        onClick={async () => {
          setRetrying(true);
          try {
            await onRetry();
          } finally {
            setRetrying(false);
          }
        }}
      >
        Try again
      </Button>
    </main>
  );
}
