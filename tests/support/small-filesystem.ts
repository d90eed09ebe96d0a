// A real small filesystem for fault tests: a tmpfs of a chosen size mounted on a new folder (root only,
// as in this project's test machine), so a full disk or a rename across filesystems happens for real.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A mounted tmpfs: its folder, how to fill it and how to let it go. */
export interface SmallFilesystem {
  /** The folder the filesystem is mounted on. */
  dir: string;
  /** Bytes still free on it. */
  freeBytes(): number;
  /** Writes a ballast file until the filesystem is full (fewer than `leaveBytes` free), returning the file. */
  fill(leaveBytes?: number): string;
  /** Unmounts it and removes the folder; what was on it is gone. */
  unmount(): void;
}

/** Mounts a tmpfs of `size` (as `mount -o size=` reads it: `2m`, `512k`) on a new temporary folder. */
export function mountSmallFilesystem(size: string): SmallFilesystem {
  const dir = mkdtempSync(path.join(tmpdir(), 'small-filesystem-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir]);
  const freeBytes = () => {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  };
  let ballasts = 0;
  return {
    dir,
    freeBytes,
    fill(leaveBytes = 0) {
      const file = path.join(dir, `ballast-${++ballasts}`);
      const block = Buffer.alloc(4096, 0x61);
      writeFileSync(file, '');
      try {
        while (freeBytes() > leaveBytes) writeFileSync(file, block, { flag: 'a' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
      return file;
    },
    unmount() {
      execFileSync('umount', ['--lazy', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
