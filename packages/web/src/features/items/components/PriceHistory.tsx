import type { ItemResponse } from "@easel/common";
import { formatEther } from "viem";
import { dateText, dateTimeText } from "../../../lib/dates.ts";

const WIDTH = 640;
const HEIGHT = 200;
const PAD = { top: 16, right: 16, bottom: 28, left: 64 };
/** ETH as a number, for drawing only: amounts shown as text stay exact. */
const eth = (wei: string) => Number(formatEther(BigInt(wei)));

/** The item's sales over time: one point per sale, joined by a line, with a table for screen readers. */
export function PriceHistory({ points }: { points: ItemResponse["data"]["priceHistory"] }) {
  return (
    <section aria-labelledby="item-price-history" className="flex flex-col gap-3">
      <h2 id="item-price-history" className="text-lg font-semibold">
        Price history
      </h2>
      {points.length === 0 ? (
        <p className="text-neutral-600 dark:text-neutral-400">No sales yet.</p>
      ) : (
        <>
          <Chart points={points} />
          <table className="sr-only">
            <caption>Sales of this item</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Price</th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={`${p.time}:${p.priceWei}`}>
                  <td>{dateTimeText(p.time)}</td>
                  <td>{formatEther(BigInt(p.priceWei))} ETH</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

function Chart({ points }: { points: ItemResponse["data"]["priceHistory"] }) {
  const times = points.map((p) => new Date(p.time).getTime());
  const prices = points.map((p) => eth(p.priceWei));
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const top = Math.max(...prices) * 1.1 || 1;
  const x = (t: number) =>
    PAD.left + (t1 === t0 ? 0.5 : (t - t0) / (t1 - t0)) * (WIDTH - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - v / top) * (HEIGHT - PAD.top - PAD.bottom);
  const line = points
    .map((_, i) => `${i === 0 ? "M" : "L"}${x(times[i] as number)},${y(prices[i] as number)}`)
    .join(" ");
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="w-full max-w-3xl" aria-hidden="true">
      {[0, 0.5, 1].map((f) => (
        <g key={f}>
          <line
            x1={PAD.left}
            x2={WIDTH - PAD.right}
            y1={y(top * f)}
            y2={y(top * f)}
            className="stroke-neutral-200 dark:stroke-neutral-800"
          />
          <text x={PAD.left - 8} y={y(top * f) + 4} textAnchor="end" className="fill-neutral-500 text-[11px]">
            {(top * f).toFixed(3)} ETH
          </text>
        </g>
      ))}
      <path d={line} fill="none" className="stroke-accent-600" strokeWidth="2" />
      {points.map((p, i) => (
        <circle
          key={`${p.time}:${p.priceWei}`}
          cx={x(times[i] as number)}
          cy={y(prices[i] as number)}
          r="4"
          className="fill-accent-600"
        />
      ))}
      <text x={PAD.left} y={HEIGHT - 8} className="fill-neutral-500 text-[11px]">
        {dateText(t0)}
      </text>
      <text x={WIDTH - PAD.right} y={HEIGHT - 8} textAnchor="end" className="fill-neutral-500 text-[11px]">
        {dateText(t1)}
      </text>
    </svg>
  );
}
