/**
 * Preloaded (`node --import`) into an API process that bench/api.ts starts only to learn what SQL each
 * endpoint sends: every statement a pg client sends is appended, as one JSON line, to BENCH_SQL_CAPTURE,
 * with its parameters, its prepared statement's name and the session options of its pool. The measured API
 * runs without it.
 */
import { appendFileSync } from "node:fs";
import pg from "pg";

export type CapturedStatement = {
  text: string;
  values: unknown[];
  /** The prepared statement's name (`$repeated`'s shapes); absent for unnamed statements. */
  name?: string;
  rowMode?: string;
  /** The client's startup options: `$repeated`'s connections set their plan settings there. */
  options?: string;
  /** Sent on a pipelined connection (`$repeated`'s). */
  pipeline?: boolean;
};

const file = process.env.BENCH_SQL_CAPTURE;
if (file) {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    const config = (typeof first === "string" ? { text: first } : first) as {
      text?: string;
      values?: unknown[];
      name?: string;
      rowMode?: string;
    };
    if (config && typeof config.text === "string") {
      const values = Array.isArray(second) ? second : (config.values ?? []);
      const statement: CapturedStatement = {
        text: config.text,
        values: values.map((v) => (typeof v === "bigint" ? v.toString() : v)),
        ...(config.name ? { name: config.name } : {}),
        ...(config.rowMode ? { rowMode: config.rowMode } : {}),
        ...((this as unknown as { connectionParameters?: { options?: string } }).connectionParameters?.options
          ? {
              options: (this as unknown as { connectionParameters: { options: string } }).connectionParameters
                .options,
            }
          : {}),
        ...(this.pipeline ? { pipeline: true } : {}),
      };
      appendFileSync(file, `${JSON.stringify(statement)}\n`);
    }
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
}
