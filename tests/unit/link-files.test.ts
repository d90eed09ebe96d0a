import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkTrees } from '../../src/lib/link-files.ts';
import { mountSmallFilesystem, type SmallFilesystem } from '../support/small-filesystem.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** A last build's `garments/`: three garments of two files each, one file in a folder of its own. */
function lastBuild(root: string): { files: string[] } {
  const files = ['a', 'b', 'c'].flatMap((slug) => [
    path.join('garments', slug, 'index.html'),
    path.join('garments', slug, 'svc', 'index.html'),
  ]);
  for (const file of files) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), `page ${file}`);
  }
  return { files };
}

function folder(parent: string): string {
  const dir = mkdtempSync(path.join(parent, 'link-trees-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function listed(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('linkTrees', () => {
  it('links the named garments folders whole, every file the last build file, and nothing of the others', async () => {
    const from = folder(tmpdir());
    const to = folder(tmpdir());
    const { files } = lastBuild(from);
    const carried = files.filter((file) => !file.startsWith(path.join('garments', 'b')));
    await linkTrees('garments', ['a', 'c'], carried, from, to);
    expect(listed(to)).toEqual(carried.sort());
    for (const file of carried) expect(statSync(path.join(to, file)).ino).toBe(statSync(path.join(from, file)).ino);
  });

  it('copies them onto another file system, where no link can go, leaving the last build as it was', async () => {
    const disk: SmallFilesystem = mountSmallFilesystem('2m');
    cleanups.push(() => disk.unmount());
    const from = folder(tmpdir());
    const to = folder(disk.dir);
    const { files } = lastBuild(from);
    await linkTrees('garments', ['a', 'b', 'c'], files, from, to);
    expect(listed(to)).toEqual([...files].sort());
    for (const file of files) {
      expect(readFileSync(path.join(to, file), 'utf8')).toBe(`page ${file}`);
      expect(readFileSync(path.join(from, file), 'utf8')).toBe(`page ${file}`);
      expect(statSync(path.join(to, file)).dev).not.toBe(statSync(path.join(from, file)).dev);
    }
  });
});
