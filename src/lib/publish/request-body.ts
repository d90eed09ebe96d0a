import type { Readable } from 'node:stream';

/** The largest request body the API reads by default: 5 MiB, well above any real record. */
export const DEFAULT_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/** A body read whole, or why not: over the limit (reading stopped there), or the client went away. */
export type BodyRead = { ok: true; bytes: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

/**
 * Reads a request body up to `limitBytes`. A declared Content-Length over the limit is refused
 * before reading anything; a body that grows past it is refused at the first chunk over, and the
 * stream is paused rather than destroyed, so the caller can still answer before closing.
 * @example await readBody(request, 1024, request.headers['content-length']) → { ok: false, reason: 'too_large' }
 */
export function readBody(stream: Readable, limitBytes: number, declaredLength?: string): Promise<BodyRead> {
  if (declaredLength !== undefined && /^\d+$/.test(declaredLength) && Number(declaredLength) > limitBytes) {
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onAbort);
      stream.off('close', onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > limitBytes) {
        stream.pause();
        settle({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => settle({ ok: true, bytes: Buffer.concat(chunks, size) });
    const onAbort = () => settle({ ok: false, reason: 'aborted' });
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onAbort);
    stream.on('close', onAbort);
  });
}
