import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { discardRest, readBody } from '../../../src/lib/publish/request-body.ts';

/** A stream of the given chunks that counts how many of them were read. */
function countingStream(chunks: Buffer[]) {
  let read = 0;
  const stream = new Readable({
    read() {
      const next = chunks[read];
      read += 1;
      this.push(next ?? null);
    },
  });
  return { stream, chunksRead: () => Math.min(read, chunks.length) };
}

describe('readBody', () => {
  it('reads a body within the limit whole', async () => {
    const { stream } = countingStream([Buffer.from('{"a":'), Buffer.from('1}')]);
    const result = await readBody(stream, 100);
    expect(result).toEqual({ ok: true, bytes: Buffer.from('{"a":1}') });
  });

  it('accepts a body of exactly the limit', async () => {
    const { stream } = countingStream([Buffer.alloc(10)]);
    expect((await readBody(stream, 10)).ok).toBe(true);
  });

  it('refuses a declared Content-Length over the limit without reading anything', async () => {
    const { stream, chunksRead } = countingStream([Buffer.alloc(10)]);
    expect(await readBody(stream, 5, '6')).toEqual({ ok: false, reason: 'too_large' });
    expect(chunksRead()).toBe(0);
  });

  it('stops at the first chunk over the limit when the length was not declared, reading no more than the stream buffers', async () => {
    const chunks = Array.from({ length: 1000 }, () => Buffer.alloc(1024));
    const { stream, chunksRead } = countingStream(chunks);
    expect(await readBody(stream, 4096)).toEqual({ ok: false, reason: 'too_large' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Paused: the stream fills its own buffer (its highWaterMark) and stops, far short of the 1000 chunks.
    expect(chunksRead()).toBeLessThan(100);
    expect(stream.isPaused()).toBe(true);
  });

  it('stops when a declared length lies and more arrives', async () => {
    const { stream } = countingStream([Buffer.alloc(8), Buffer.alloc(8)]);
    expect(await readBody(stream, 10, '4')).toEqual({ ok: false, reason: 'too_large' });
  });

  it('reports a stream that ends in an error as aborted', async () => {
    const stream = new Readable({
      read() {
        this.destroy(new Error('connection reset'));
      },
    });
    expect(await readBody(stream, 100)).toEqual({ ok: false, reason: 'aborted' });
  });
});

describe('discardRest', () => {
  it('reads the rest of a refused body to its end, after a refusal paused it', async () => {
    const { stream, chunksRead } = countingStream(Array.from({ length: 40 }, () => Buffer.alloc(1024)));
    expect((await readBody(stream, 4096)).ok).toBe(false);
    expect(await discardRest(stream, 64 * 1024)).toBe(true);
    expect(chunksRead()).toBe(40);
  });

  it('gives up on a body that goes on past its limit, so the connection can be closed', async () => {
    const { stream, chunksRead } = countingStream(Array.from({ length: 1000 }, () => Buffer.alloc(1024)));
    expect(await discardRest(stream, 8 * 1024)).toBe(false);
    expect(chunksRead()).toBeLessThan(100);
  });
});
