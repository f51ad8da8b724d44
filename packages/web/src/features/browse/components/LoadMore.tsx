import { useEffect, useRef } from "react";
import { Button } from "../../../ui/Button.tsx";
import { Loading } from "../../../ui/Loading.tsx";

/**
 * The end of an infinite list: loads the next page when it scrolls into view, with a button for keyboards
 * and for browsers without IntersectionObserver.
 */
export function LoadMore({
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  label,
}: {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  label: string;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) fetchNextPage();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  if (!hasNextPage) return null;
  return (
    <div ref={sentinel} className="flex justify-center py-6">
      {isFetchingNextPage ? (
        <Loading label={label} />
      ) : (
        <Button variant="secondary" onClick={() => fetchNextPage()}>
          Load more
        </Button>
      )}
    </div>
  );
}
