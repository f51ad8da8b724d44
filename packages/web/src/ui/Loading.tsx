import { Spinner } from "./Spinner.tsx";

/**
 * A wait that screen readers hear: a spinner named by `label` ("Loading profile"). `section` sits inside a
 * page; `page` stands for a whole page's content (PageLoader is the app's own loading screen).
 */
export function Loading({
  label = "Loading",
  size = "section",
}: {
  label?: string;
  size?: "section" | "page";
}) {
  return size === "page" ? (
    <div className="flex justify-center py-24" role="status" aria-label={label}>
      <Spinner className="size-8 text-neutral-400" />
    </div>
  ) : (
    <div className="py-10" role="status" aria-label={label}>
      <Spinner className="size-6 text-neutral-400" />
    </div>
  );
}
