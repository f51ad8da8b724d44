import { useEffect, useState } from "react";
import { type Config, useBlock } from "wagmi";
import { getBlock } from "wagmi/actions";
import { useAppConfig } from "../api/appConfig.tsx";

/**
 * The time as the chain sees it, ticking every second while `running`: auctions end by block time, so a
 * countdown or a Settle button follows the chain. A chain ahead of this computer's clock (a local chain moved
 * forward) moves "now" with it; a chain slightly behind (blocks every 12 s) leaves the clock as it is.
 */
export function useChainNow(running: boolean): number {
  const { chainId } = useAppConfig();
  const block = useBlock({ chainId, query: { refetchInterval: 5_000 } });
  const [clock, setClock] = useState(() => Date.now());
  const [ahead, setAhead] = useState(0);
  useEffect(() => {
    if (block.data) setAhead(Math.max(0, Number(block.data.timestamp) * 1000 - Date.now()));
  }, [block.data]);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setClock(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return clock + ahead;
}

/** The chain's latest block time in unix seconds (a signed order's expiry is counted from it, not this clock). */
export async function chainNowSeconds(config: Config, chainId: number): Promise<bigint> {
  return (await getBlock(config, { chainId })).timestamp;
}
