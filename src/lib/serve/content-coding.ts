import { constants, createBrotliCompress, createGzip, createZstdCompress } from 'node:zlib';
import type { Transform } from 'node:stream';

/** A content coding the static server can send: its Content-Encoding name and the suffix of a file precompressed with it. */
export type ContentCoding = 'br' | 'zstd' | 'gzip';

/** Suffix of the file the build writes beside a large text file, already compressed with the coding. */
export const PRECOMPRESSED_SUFFIX: Record<ContentCoding, string> = { br: '.br', zstd: '.zst', gzip: '.gz' };

/** The codings the server prefers, best first, when a client accepts several equally. */
const PREFERENCE: ContentCoding[] = ['br', 'zstd', 'gzip'];

/**
 * The coding to send for an Accept-Encoding header: the one with the highest quality above 0
 * (named, or by `*`), ties going to brotli, then zstd, then gzip; undefined for none.
 * @example chooseCoding('gzip, br;q=0.5') → 'gzip'; chooseCoding('br, zstd') → 'br'; chooseCoding('gzip;q=0') → undefined
 */
export function chooseCoding(header: string | undefined): ContentCoding | undefined {
  const qualities = new Map<string, number>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    if (name) qualities.set(name, quality ? Number(quality.slice(2)) : 1);
  }
  let best: ContentCoding | undefined;
  let bestQuality = 0;
  for (const coding of PREFERENCE) {
    const quality = qualities.get(coding) ?? qualities.get('*') ?? 0;
    if (quality > bestQuality) {
      best = coding;
      bestQuality = quality;
    }
  }
  return best;
}

/** A stream compressing with the coding, at a level quick enough to run per request. */
export function compressor(coding: ContentCoding): Transform {
  if (coding === 'br') return createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  if (coding === 'zstd') return createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: 3 } });
  return createGzip();
}
