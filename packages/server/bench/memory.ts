import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

/** The highest resident memory a child process has reached so far (Linux's VmHWM), in MB. */
export function peakRssMb(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}
