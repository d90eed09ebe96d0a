import { existsSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GarmentPressError } from './errors.ts';

/** Thrown when a write found no space left; the message names what could not be written. */
export class DiskFullError extends GarmentPressError {}

/** SQLite's SQLITE_FULL, and SQLITE_IOERR_SHMSIZE: a WAL database's shared memory file could not grow. */
const SQLITE_FULL = 13;
const SQLITE_IOERR_SHMSIZE = 4874;

/** Whether an error (of the file system or of SQLite) says the disk or the quota is full. */
export function isDiskFull(error: unknown): boolean {
  if (error instanceof DiskFullError) return true;
  const { code, errcode, cause } = (error ?? {}) as { code?: unknown; errcode?: unknown; cause?: unknown };
  if (cause !== undefined && isDiskFull(cause)) return true;
  if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  return typeof errcode === 'number' && ((errcode & 0xff) === SQLITE_FULL || errcode === SQLITE_IOERR_SHMSIZE);
}

/** What the file system holding `folder` has left for this process, in bytes; undefined when it cannot be read. */
export function freeBytes(folder: string): number | undefined {
  try {
    const stats = statfsSync(folder);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}

/** What a client is told when a publish cannot be taken for want of space; the operator's log says which disk. */
export const DISK_FULL_ANSWER = 'the disk is full, so nothing was published; publish again once the operator has freed some space';

/** Below this much free space a folder's disk counts as full: a publish needs its record, its WAL frames and the rebuilt site's new files. */
export const DISK_FULL_BELOW_BYTES = 1024 * 1024;

/** How the disks of some named folders stand: each one's free bytes, whether the space reserve is in place, and whether the disk counts as full. */
export interface DiskReport {
  state: 'ok' | 'full';
  /** `given_up` while the reserve is released (or could not be made): the disk is full but for it. */
  reserve: 'kept' | 'given_up';
  /** By name only: anyone may read the report, so it names no path. */
  folders: Array<{ name: string; free_bytes: number | null; full: boolean }>;
}

/**
 * Reports the free space of each named folder's disk, keeping the reserve again if there is room;
 * `full` when any has less than DISK_FULL_BELOW_BYTES, or the reserve is not in place.
 */
export function diskReport(folders: Record<string, string>, reserve: SpaceReserve): DiskReport {
  reserve.keep();
  const entries = Object.entries(folders).map(([name, folder]) => {
    const free = freeBytes(folder);
    return { name, free_bytes: free ?? null, full: free !== undefined && free < DISK_FULL_BELOW_BYTES };
  });
  const kept = reserve.inPlace();
  return { state: kept && !entries.some((entry) => entry.full) ? 'ok' : 'full', reserve: kept ? 'kept' : 'given_up', folders: entries };
}

/** A file of spare bytes kept beside the databases, given up when the disk is full so they can still open. */
export interface SpaceReserve {
  /** Makes the file again when it is missing and the disk has room for it and more. */
  keep(): void;
  /** Removes the file; false when there was none to give up. */
  release(): boolean;
  /** Whether the file is there. */
  inPlace(): boolean;
}

/**
 * A space reserve of `bytes` at `file`. A WAL database needs a little space to open at all (its
 * shared memory file), so a service restarted on a full disk releases the reserve and starts.
 */
export function spaceReserve(file: string, bytes: number): SpaceReserve {
  return {
    keep() {
      if (bytes === 0 || existsSync(file) || (freeBytes(path.dirname(file)) ?? 0) < bytes + DISK_FULL_BELOW_BYTES) return;
      try {
        writeFileSync(file, Buffer.alloc(bytes), { flag: 'wx' });
      } catch {
        rmSync(file, { force: true });
      }
    },
    release() {
      if (!existsSync(file)) return false;
      rmSync(file, { force: true });
      return true;
    },
    inPlace: () => bytes === 0 || existsSync(file),
  };
}
