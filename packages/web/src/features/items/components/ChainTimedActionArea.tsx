import type { ItemResponse } from "@easel/common";
import { useChainNow } from "../../../web3/chainTime.ts";
import { ActionArea } from "./ItemActions.tsx";

/** The item's actions on the chain's clock: loaded with the wallet code, inside its boundary. */
export default function ChainTimedActionArea({ item }: { item: ItemResponse["data"] }) {
  const now = useChainNow(true);
  return <ActionArea item={item} now={now} />;
}
