import { type CSSProperties, useEffect, useRef } from "react";

/**
 * A card's video (browsing-and-accounts B35; DESIGN: "Video autoplays muted and loops in cards"): its poster
 * (the card's thumbnail) until the card comes into view, then the video, muted and looping, paused again
 * when it leaves. Nothing of the video loads before it is first in view (no `src`, `preload="none"`), so a
 * grid of videos costs what a grid of pictures does. It stays on its poster without IntersectionObserver or
 * when the visitor asks for reduced motion.
 */
export function CardVideo({
  src,
  poster,
  label,
  className,
  style,
  onError,
}: {
  src: string;
  poster: string | null;
  label: string;
  className?: string;
  style?: CSSProperties;
  onError?: () => void;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video || typeof IntersectionObserver === "undefined") return;
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1];
        if (!entry) return;
        if (entry.isIntersecting) {
          if (!video.getAttribute("src")) video.setAttribute("src", src);
          // A play refused (autoplay blocked, the card gone) leaves the poster: nothing to tell anyone.
          void video.play()?.catch(() => {});
        } else video.pause();
      },
      { threshold: 0.25 },
    );
    observer.observe(video);
    return () => {
      observer.disconnect();
      video.pause();
    };
  }, [src]);
  return (
    <video
      ref={ref}
      poster={poster ?? undefined}
      muted
      loop
      playsInline
      preload="none"
      aria-label={label}
      onError={onError}
      style={style}
      className={className}
    />
  );
}
