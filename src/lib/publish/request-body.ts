import type { IncomingMessage, ServerResponse } from 'node:http';
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
export async function readBody(stream: Readable, limitBytes: number, declaredLength?: string): Promise<BodyRead> {
  if (declaredLength !== undefined && /^\d+$/.test(declaredLength) && Number(declaredLength) > limitBytes) {
    return { ok: false, reason: 'too_large' };
  }
  const chunks: Buffer[] = [];
  const outcome = await readUpTo(stream, limitBytes, (bytes) => chunks.push(bytes));
  return outcome === 'ended' ? { ok: true, bytes: Buffer.concat(chunks) } : { ok: false, reason: outcome };
}

/**
 * Reads and throws away the rest of a refused body, up to `limitBytes`, so a client that sends its
 * whole body before reading the answer (as fetch does) gets the answer rather than a broken pipe.
 * @returns whether the body ended within the limit (if not, the connection should be closed)
 */
export async function discardRest(stream: Readable, limitBytes: number): Promise<boolean> {
  return (await readUpTo(stream, limitBytes, () => {})) === 'ended';
}

/** How reading a body up to a limit ended. */
type ReadOutcome = 'ended' | 'too_large' | 'aborted';

function readUpTo(stream: Readable, limitBytes: number, take: (bytes: Buffer) => void): Promise<ReadOutcome> {
  return new Promise((resolve) => {
    let size = 0;
    let settled = false;
    const settle = (outcome: ReadOutcome) => {
      if (settled) return;
      settled = true;
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onAbort);
      stream.off('close', onAbort);
      resolve(outcome);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > limitBytes) {
        stream.pause();
        settle('too_large');
        return;
      }
      take(bytes);
    };
    const onEnd = () => settle('ended');
    const onAbort = () => settle('aborted');
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onAbort);
    stream.on('close', onAbort);
    stream.resume();
  });
}

/** How long a connection refused mid-body still reads, and drops, what its client sends after the answer. */
const LINGER_MS = 2000;

/**
 * Has the connection of a request whose body is still coming close gently after the answer. Node
 * would close the socket at once, and closing with input unread sends a reset, which can destroy
 * the answer before the client has read it. So the write side closes first, what still comes is
 * read and dropped, and the socket closes when the client stops or after LINGER_MS.
 */
export function closeLingering(request: IncomingMessage): void {
  const { socket } = request;
  socket.destroySoon = () => {
    socket.end();
    request.resume();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(timer));
  };
}

/** Whether a request declares a body (Content-Length) larger than `limitBytes`. */
export function declaresTooLarge(request: IncomingMessage, limitBytes: number): boolean {
  const declared = request.headers['content-length'];
  return declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limitBytes;
}

/**
 * Answers 413 to a request declaring a body over the limit without reading any of it (a client
 * waiting on `Expect: 100-continue` gets this instead of 100), and closes the connection after.
 */
export function refuseTooLarge(request: IncomingMessage, response: ServerResponse, limitBytes: number): void {
  closeLingering(request);
  const json = JSON.stringify({
    error: { code: 'payload_too_large', message: `the request body is larger than the limit of ${limitBytes} bytes` },
  });
  response.writeHead(413, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    'Cache-Control': 'no-store',
    Connection: 'close',
  });
  response.end(json);
}
