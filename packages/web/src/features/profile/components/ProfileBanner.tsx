import { useState } from "react";
import { CROP_PRESETS } from "../../../lib/cropImage.ts";

/**
 * The profile and collection banner, shown at the crop's own ratio at every width, so the picture is exactly
 * what its owner cropped; a calm default when absent or failing.
 */
export function ProfileBanner({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  return (
    <div
      data-testid="banner"
      style={{ aspectRatio: CROP_PRESETS.banner.aspect }}
      className="w-full overflow-hidden bg-gradient-to-br from-neutral-200 via-accent-100 to-neutral-300 dark:from-neutral-800 dark:via-accent-500/20 dark:to-neutral-900"
    >
      {src && !failed ? (
        <img
          src={src}
          alt=""
          fetchPriority="high"
          className="size-full object-cover"
          onError={() => setFailed(true)}
        />
      ) : null}
    </div>
  );
}
