import { useEffect } from "react";

/** Sets the document title for a page. */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = title === "Easel" ? "Easel" : `${title} · Easel`;
  }, [title]);
}
