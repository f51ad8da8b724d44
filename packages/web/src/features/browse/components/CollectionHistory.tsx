import { HISTORY_RANGES, type HistoryPoint, type HistoryRange } from "@easel/common";
import { useState } from "react";
import { formatEther } from "viem";
import { errorMessage } from "../../../api/client.ts";
import { decimalText } from "../../../lib/dates.ts";
import { ethText } from "../../../lib/eth.ts";
import { Loading } from "../../../ui/Loading.tsx";
import { useCollectionHistory } from "../api/browse.ts";
import { SelectFilter } from "./FilterPanel.tsx";

const RANGE_LABELS: Record<HistoryRange, string> = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  all: "All time",
};

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { top: 16, right: 56, bottom: 28, left: 56 };

/** ETH as a number, for drawing only: amounts shown as text stay exact. */
const ethNumber = (wei: string) => Number(formatEther(BigInt(wei)));

/** A collection's statistics over time: volume per day as bars, the floor at each day's end as a line. */
export function CollectionHistory({ address }: { address: string }) {
  const [range, setRange] = useState<HistoryRange>("30d");
  const query = useCollectionHistory(address, range);
  return (
    <section aria-labelledby="collection-statistics" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="collection-statistics" className="text-xl font-semibold">
          Statistics
        </h2>
        <SelectFilter
          label="Period"
          value={range}
          onChange={(v) => setRange(v as HistoryRange)}
          options={HISTORY_RANGES.map((r) => ({ value: r, label: RANGE_LABELS[r] }))}
        />
      </div>
      {query.isPending ? (
        <Loading label="Loading statistics" />
      ) : query.isError ? (
        <p className="text-red-700 dark:text-red-400">{errorMessage(query.error)}</p>
      ) : (
        <div className={query.isPlaceholderData ? "opacity-60" : ""}>
          <Chart days={query.data} />
          <details className="mt-3 text-sm">
            <summary className="cursor-pointer font-medium">Show as a table</summary>
            <table className="mt-2 w-full text-left">
              <caption className="sr-only">Volume, sales and floor per day</caption>
              <thead className="text-neutral-500">
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Volume</th>
                  <th scope="col">Sales</th>
                  <th scope="col">Floor</th>
                </tr>
              </thead>
              <tbody>
                {query.data.map((d) => (
                  <tr key={d.day}>
                    <td>{d.day}</td>
                    <td className="tabular-nums">{ethText(d.volumeWei)}</td>
                    <td className="tabular-nums">{d.sales}</td>
                    <td className="tabular-nums">{ethText(d.floorWei)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </div>
      )}
    </section>
  );
}

function Chart({ days }: { days: HistoryPoint[] }) {
  const volumes = days.map((d) => ethNumber(d.volumeWei));
  const floors = days.map((d) => (d.floorWei === null ? null : ethNumber(d.floorWei)));
  const maxVolume = Math.max(...volumes, 0) || 1;
  const maxFloor = Math.max(...floors.map((f) => f ?? 0), 0) || 1;
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const step = innerW / Math.max(days.length, 1);
  const x = (i: number) => PAD.left + i * step + step / 2;
  const yVolume = (v: number) => PAD.top + innerH - (v / maxVolume) * innerH;
  const yFloor = (v: number) => PAD.top + innerH - (v / maxFloor) * innerH;
  // The floor line breaks on days when nothing was listed.
  const segments: string[] = [];
  let current = "";
  floors.forEach((f, i) => {
    if (f === null) {
      if (current) segments.push(current);
      current = "";
    } else current += `${current ? "L" : "M"}${x(i).toFixed(1)},${yFloor(f).toFixed(1)}`;
  });
  if (current) segments.push(current);
  const totalVolume = days.reduce((sum, d) => sum + BigInt(d.volumeWei), 0n);
  const lastFloor = [...days].reverse().find((d) => d.floorWei !== null)?.floorWei ?? null;
  return (
    <figure>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="w-full text-neutral-500"
        role="img"
        aria-label={`Volume ${ethText(totalVolume.toString())} over ${days.length} days; latest floor ${ethText(lastFloor)}`}
      >
        <line
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={PAD.top + innerH}
          y2={PAD.top + innerH}
          stroke="currentColor"
          strokeOpacity="0.4"
        />
        {volumes.map((v, i) =>
          v > 0 ? (
            <rect
              key={days[i]?.day}
              x={x(i) - Math.max(step * 0.35, 1)}
              width={Math.max(step * 0.7, 2)}
              y={yVolume(v)}
              height={PAD.top + innerH - yVolume(v)}
              className="fill-accent-500/70"
            />
          ) : null,
        )}
        {segments.map((d) => (
          <path
            key={d}
            d={d}
            fill="none"
            strokeWidth="2"
            className="stroke-neutral-900 dark:stroke-neutral-100"
          />
        ))}
        {floors.map((f, i) =>
          f !== null &&
          (i === 0 || floors[i - 1] === null) &&
          (i === floors.length - 1 || floors[i + 1] === null) ? (
            <circle
              key={days[i]?.day}
              cx={x(i)}
              cy={yFloor(f)}
              r="3"
              className="fill-neutral-900 dark:fill-neutral-100"
            />
          ) : null,
        )}
        <text x={PAD.left - 6} y={PAD.top + 4} textAnchor="end" fontSize="11" fill="currentColor">
          {decimalText(maxVolume, 3)}
        </text>
        <text x={WIDTH - PAD.right + 6} y={PAD.top + 4} fontSize="11" fill="currentColor">
          {decimalText(maxFloor, 3)}
        </text>
        <text x={PAD.left} y={HEIGHT - 8} fontSize="11" fill="currentColor">
          {days[0]?.day}
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 8} textAnchor="end" fontSize="11" fill="currentColor">
          {days.at(-1)?.day}
        </text>
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-neutral-600 dark:text-neutral-400">
        <span className="flex items-center gap-2">
          <span className="inline-block size-3 rounded-sm bg-accent-500/70" aria-hidden="true" /> Volume (ETH,
          left)
        </span>
        <span className="flex items-center gap-2">
          <span className="inline-block h-0.5 w-4 bg-neutral-900 dark:bg-neutral-100" aria-hidden="true" />{" "}
          Floor (ETH, right)
        </span>
        <span>Total volume {ethText(totalVolume.toString())}</span>
      </figcaption>
    </figure>
  );
}
