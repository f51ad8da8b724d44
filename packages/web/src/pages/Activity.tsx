import { FEED_KINDS, type FeedKind } from "@easel/common";
import { useSearchParams } from "react-router";
import { ActivityFeed } from "../features/activity/components/ActivityFeed.tsx";
import { usePageTitle } from "../lib/usePageTitle.ts";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** /activity: the market's activity feed; its filters live in the URL (`?kind=sale&collection=0x…`). */
export function Component() {
  usePageTitle("Activity");
  const [params, setParams] = useSearchParams();
  const kindParam = params.get("kind") ?? "";
  const kind = (FEED_KINDS as readonly string[]).includes(kindParam) ? (kindParam as FeedKind) : undefined;
  const collectionParam = params.get("collection") ?? "";
  const collection = ADDRESS.test(collectionParam) ? collectionParam.toLowerCase() : undefined;
  const set = (name: string, value: string | undefined) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-10">
      <ActivityFeed
        kind={kind}
        collection={collection}
        onKindChange={(value) => set("kind", value)}
        onCollectionChange={(value) => set("collection", value)}
      />
    </div>
  );
}
