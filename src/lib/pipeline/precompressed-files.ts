// The build's side of compressed serving: `.br` and `.zst` files beside the site's large text files,
// which the static server (serve/static-files.ts) sends instead of compressing on every request.
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, zstdCompress } from 'node:zlib';
import { PRECOMPRESSED_SUFFIX } from '../serve/content-coding.ts';

/**
 * A twin from this size is precompressed; smaller ones are compressed quickly enough per request.
 * At 64 KiB every synthetic twin was (about 17 ms each), which tripled a 10,000-record build's CPU.
 */
export const PRECOMPRESS_FROM_BYTES = 1024 * 1024;

/** The site's lists, precompressed whatever their size: each grows with the site (11 MB of records.json at 10,000 records). */
const SITE_LISTS = ['records.json', 'records.csv', 'llms.txt'];

/** The compressed copies a build may write beside a file. @example precompressedCopies('records.json') → ['records.json.br', 'records.json.zst'] */
export function precompressedCopies(file: string): string[] {
  return [`${file}${PRECOMPRESSED_SUFFIX.br}`, `${file}${PRECOMPRESSED_SUFFIX.zstd}`];
}

const compressBrotli = promisify(brotliCompress);
const compressZstd = promisify(zstdCompress);

/**
 * Writes `<file>.br` and `<file>.zst` beside records.json, records.csv, llms.txt and every twin (`garments/…/*.md`,
 * `*.json`) of PRECOMPRESS_FROM_BYTES or more, in `siteDir`. A file whose compressed copies are
 * already as new (linked from the last build with it) is left. Levels favour size at a build's pace:
 * brotli 6 and zstd 6 compress tens of megabytes a second, off the main thread.
 * @returns the files compressed
 */
export async function writePrecompressedFiles(siteDir: string, garmentFiles: Iterable<string>): Promise<number> {
  // A garment's twins sit directly in its folder (`garments/<slug>/svc.md`); its revisions, below, are asked for rarely.
  const twins = [...garmentFiles].filter((file) => /^garments[/\\][^/\\]+[/\\][^/\\]+\.(md|json)$/.test(file));
  const candidates = [...SITE_LISTS, ...twins];
  let written = 0;
  for (let start = 0; start < candidates.length; start += 64) {
    const batch = candidates.slice(start, start + 64);
    const done = await Promise.all(
      batch.map((file) => precompress(path.join(siteDir, file), SITE_LISTS.includes(file) ? 0 : PRECOMPRESS_FROM_BYTES)),
    );
    written += done.filter(Boolean).length;
  }
  return written;
}

async function precompress(file: string, fromBytes: number): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile() || info.size < fromBytes) return false;
  const [brotliFile, zstdFile] = precompressedCopies(file) as [string, string];
  const copies = await Promise.all([brotliFile, zstdFile].map((copy) => stat(copy).catch(() => undefined)));
  if (copies.every((copy) => copy !== undefined && copy.mtimeMs >= info.mtimeMs)) return false;
  const text = await readFile(file);
  const [brotli, zstd] = await Promise.all([
    compressBrotli(text, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: text.length },
    }),
    compressZstd(text, { params: { [constants.ZSTD_c_compressionLevel]: 6 } }),
  ]);
  // Removed first: a copy linked from the last build is that build's file too, still being served.
  await Promise.all([rm(brotliFile, { force: true }), rm(zstdFile, { force: true })]);
  await Promise.all([writeFile(brotliFile, brotli), writeFile(zstdFile, zstd)]);
  return true;
}
