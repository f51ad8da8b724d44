import { useEthPrice, weiToUsd } from "./ethPrice.ts";

/** The USD value of a wei amount, shown beside its ETH price ("≈ $1,234.56"); nothing while unknown. */
export function UsdValue({
  wei,
  className = "",
}: {
  wei: bigint | string | null | undefined;
  className?: string;
}) {
  const price = useEthPrice();
  if (wei === null || wei === undefined || !price.data) return null;
  return (
    <span className={`text-neutral-600 tabular-nums dark:text-neutral-400 ${className}`}>
      ≈ {weiToUsd(BigInt(wei), price.data.usd)}
    </span>
  );
}
