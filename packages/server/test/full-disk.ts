/**
 * Fault injection: a disk that fills up. Files opened with `fs.open` or `fs.openSync` (and so
 * `fs.createWriteStream`) whose path ends with `suffix` take at most `bytes` bytes; every write past that fails with ENOSPC, as
 * the kernel answers on a full disk. The file itself is created as usual.
 *
 * In a test, `const disk = fullDisk({ bytes: 65536 })` … `disk.restore()`. For a spawned command,
 * `node --import tsx --import ./test/full-disk.ts …` with FULL_DISK_BYTES (and FULL_DISK_SUFFIX) set.
 */
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

type Callback = (error: NodeJS.ErrnoException | null, written?: number, data?: unknown) => void;

function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error("ENOSPC: no space left on device, write"), {
    errno: -28,
    code: "ENOSPC",
    syscall: "write",
  });
}

export function fullDisk(options: { bytes: number; suffix?: string }): { restore(): void } {
  const suffix = options.suffix ?? ".partial";
  const original = {
    open: fs.open,
    openSync: fs.openSync,
    write: fs.write,
    writev: fs.writev,
    close: fs.close,
    closeSync: fs.closeSync,
  };
  /** Open descriptors of matching files, and the bytes written to each. */
  const watched = new Map<number, number>();
  const admit = (fd: number, length: number): boolean => {
    const used = watched.get(fd);
    if (used === undefined) return true;
    if (used + length > options.bytes) return false;
    watched.set(fd, used + length);
    return true;
  };
  fs.openSync = ((path: fs.PathLike, ...rest: unknown[]) => {
    const fd = (original.openSync as (...args: unknown[]) => number)(path, ...rest);
    if (String(path).endsWith(suffix)) watched.set(fd, 0);
    return fd;
  }) as typeof fs.openSync;
  fs.open = ((path: fs.PathLike, ...rest: unknown[]) => {
    const callback = rest.pop() as (error: NodeJS.ErrnoException | null, fd?: number) => void;
    return (original.open as (...args: unknown[]) => void)(
      path,
      ...rest,
      (error: NodeJS.ErrnoException | null, fd?: number) => {
        if (!error && fd !== undefined && String(path).endsWith(suffix)) watched.set(fd, 0);
        callback(error, fd);
      },
    );
  }) as typeof fs.open;
  fs.write = ((fd: number, data: NodeJS.ArrayBufferView | string, ...rest: unknown[]) => {
    const callback = rest.at(-1) as Callback;
    const length =
      typeof data === "string"
        ? Buffer.byteLength(data)
        : typeof rest[1] === "number"
          ? rest[1]
          : data.byteLength - (typeof rest[0] === "number" ? rest[0] : 0);
    if (!admit(fd, length)) return process.nextTick(callback, enospc());
    return (original.write as (...args: unknown[]) => void)(fd, data, ...rest);
  }) as typeof fs.write;
  fs.writev = ((fd: number, buffers: NodeJS.ArrayBufferView[], ...rest: unknown[]) => {
    const callback = rest.at(-1) as Callback;
    const length = buffers.reduce((sum, b) => sum + b.byteLength, 0);
    if (!admit(fd, length)) return process.nextTick(callback, enospc());
    return (original.writev as (...args: unknown[]) => void)(fd, buffers, ...rest);
  }) as typeof fs.writev;
  // A closed descriptor's number is reused by the next open: it is no longer the full disk's.
  fs.close = ((fd: number, ...rest: unknown[]) => {
    watched.delete(fd);
    return (original.close as (...args: unknown[]) => void)(fd, ...rest);
  }) as typeof fs.close;
  fs.closeSync = ((fd: number) => {
    watched.delete(fd);
    original.closeSync(fd);
  }) as typeof fs.closeSync;
  syncBuiltinESMExports();
  return {
    restore() {
      Object.assign(fs, original);
      syncBuiltinESMExports();
    },
  };
}

if (process.env.FULL_DISK_BYTES)
  fullDisk({ bytes: Number(process.env.FULL_DISK_BYTES), suffix: process.env.FULL_DISK_SUFFIX });
