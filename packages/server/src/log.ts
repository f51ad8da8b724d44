import { hostname } from "node:os";

let json = false;

/**
 * Lines a role writes outside any request: start and stop, the indexer's and the worker's progress. `npm start`
 * shows them to a person as `[easel] …`; a production role (`runRole`) writes them as JSON lines with pino's
 * fields (level 30 is info, 40 warn: a failure the role retries), like the API's request logs, so one log
 * pipeline reads them all.
 */
export function logLine(message: string, level: "info" | "warn" = "info"): void {
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ level: level === "warn" ? 40 : 30, time: Date.now(), pid: process.pid, hostname: hostname(), msg: message })}\n`,
    );
  } else if (level === "warn") console.warn(`[easel] ${message}`);
  else console.log(`[easel] ${message}`);
}

/** From now on, `logLine` writes JSON lines (the production roles). */
export function logJsonLines(): void {
  json = true;
}
