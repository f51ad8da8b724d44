import type pg from "pg";

/**
 * What a committed batch tells the API processes: one NOTIFY per batch, on this channel, read by each API's
 * LISTEN connection (`live.ts`) and fanned out to its live streams.
 */
export const CHAIN_CHANNEL = "easel_chain";

/** What a committed batch touched, published with NOTIFY. */
export type ChainNotice = {
  from: string;
  to: string;
  collections?: string[];
  tokens?: string[];
  accounts?: string[];
  /** Too much to list, or a reorg: everything may have changed. */
  all?: boolean;
  reorg?: boolean;
};

/** NOTIFY after the batch (delivered when the transaction commits); too long a list becomes `all`. */
export async function publish(client: pg.ClientBase, notice: ChainNotice): Promise<void> {
  let payload = JSON.stringify(notice);
  if (payload.length > 7_500)
    payload = JSON.stringify({ from: notice.from, to: notice.to, all: true, reorg: notice.reorg });
  await client.query("SELECT pg_notify($1, $2)", [CHAIN_CHANNEL, payload]);
}
