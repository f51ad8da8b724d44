import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAlive } from "./process.ts";

/**
 * A process the launcher started in its own session (so Ctrl-C reaches it only through the launcher):
 * `marker` is a piece of its command line that names this data folder, so a recorded pid that the system
 * gave to another program since is never touched.
 */
export type ChildRecord = { name: string; pid: number; signal: NodeJS.Signals; marker: string };

const recordFile = (dataDir: string) => join(dataDir, "children.json");

/** The command line of a running process, or null. */
function commandLine(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    try {
      return execFileSync("ps", ["-o", "args=", "-p", String(pid)], { encoding: "utf8" }).trim() || null;
    } catch {
      return null;
    }
  }
}

const isOurs = (child: ChildRecord) => isAlive(child.pid) && !!commandLine(child.pid)?.includes(child.marker);

/**
 * Remembers the launcher's children in the data folder and starts a watchdog, itself in its own session,
 * that stops them as soon as the launcher is gone (a closed terminal, a killed process group): anvil and
 * PostgreSQL cannot watch their parent themselves. Returns a function that ends the watchdog on a clean stop.
 */
export function guardChildren(dataDir: string, children: ChildRecord[]): () => void {
  const watchdog = spawn(
    process.execPath,
    ["-e", WATCHDOG, String(process.pid), ...children.map((c) => `${c.pid}:${c.signal}:${c.marker}`)],
    { detached: true, stdio: "ignore" },
  );
  watchdog.unref();
  const records: ChildRecord[] = [
    ...children,
    ...(watchdog.pid
      ? [{ name: "watchdog", pid: watchdog.pid, signal: "SIGTERM" as const, marker: WATCHDOG_MARK }]
      : []),
  ];
  writeFileSync(recordFile(dataDir), `${JSON.stringify(records, null, 2)}\n`);
  return () => {
    watchdog.kill("SIGTERM");
    rmSync(recordFile(dataDir), { force: true });
  };
}

/**
 * Stops what a previous launcher of this data folder left running (it was killed before it could stop its
 * children, and so was its watchdog). Only processes whose command line still names this folder are stopped.
 * @returns the names of the processes stopped.
 */
export async function stopLeftovers(dataDir: string): Promise<string[]> {
  const file = recordFile(dataDir);
  if (!existsSync(file)) return [];
  let records: ChildRecord[] = [];
  try {
    records = JSON.parse(readFileSync(file, "utf8")) as ChildRecord[];
  } catch {
    // An unreadable record names nothing we can check.
  }
  const stopped: string[] = [];
  for (const child of records.filter(isOurs)) {
    process.kill(child.pid, child.signal);
    for (let i = 0; i < 150 && isAlive(child.pid); i++) await new Promise((r) => setTimeout(r, 100));
    if (isAlive(child.pid)) process.kill(child.pid, "SIGKILL");
    stopped.push(`${child.name} (process ${child.pid})`);
  }
  rmSync(file, { force: true });
  return stopped;
}

const WATCHDOG_MARK = "easel-watchdog";

/** The watchdog, plain JavaScript for `node -e`: polls the launcher and stops the children once it is gone. */
const WATCHDOG = `/* ${WATCHDOG_MARK} */
const [launcher, ...children] = process.argv.slice(1);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (e) { return e.code === "EPERM"; } };
const ours = (pid, marker) => {
  try { return require("node:fs").readFileSync("/proc/" + pid + "/cmdline", "utf8").includes(marker); }
  catch { return alive(pid); }
};
setInterval(() => {
  if (alive(Number(launcher))) return;
  for (const child of children) {
    const [pid, signal, ...rest] = child.split(":");
    if (alive(Number(pid)) && ours(Number(pid), rest.join(":"))) try { process.kill(Number(pid), signal); } catch {}
  }
  process.exit(0);
}, 500);
`;
