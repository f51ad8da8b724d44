import { useState } from "react";

/**
 * The profile and collection banner: at the crop's own ratio on phones and tablets, so the picture is exactly
 * what its owner cropped, and at most 320 px tall from 768 px wide on (a wide screen would otherwise give it
 * 533 px and more, pushing the page below the fold), the picture then cut to the middle band; a calm default
 * when absent or failing.
 */
export function ProfileBanner({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  return (
    <div
      data-testid="banner"
      // 12/5 is the banner crop's ratio (CROP_PRESETS.banner.aspect, 2.4), capped at 320 px (max-h-80), as the
      // class the server's first paint draws the banner with too (server/src/web/firstPaint.ts).
      className="aspect-[12/5] max-h-80 w-full overflow-hidden bg-gradient-to-br from-neutral-200 via-accent-100 to-neutral-300 dark:from-neutral-800 dark:via-accent-500/20 dark:to-neutral-900"
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
