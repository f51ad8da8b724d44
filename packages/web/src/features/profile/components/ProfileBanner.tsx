import { useState } from "react";

/** The profile banner (ratio 2.4 crop shown as a wide strip); a calm default when absent or failing. */
export function ProfileBanner({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  return (
    <div className="h-48 w-full overflow-hidden bg-gradient-to-br from-neutral-200 via-accent-100 to-neutral-300 sm:h-64 dark:from-neutral-800 dark:via-accent-500/20 dark:to-neutral-900">
      {src && !failed ? (
        <img src={src} alt="" className="size-full object-cover" onError={() => setFailed(true)} />
      ) : null}
    </div>
  );
}
