// A file made in pieces, as a response body: no string ever holds the whole file.

/**
 * The pieces of a text as a stream of UTF-8 bytes, a piece made when the reader asks for it. Each piece
 * must end on a whole character (as a piece of whole records does): a piece is encoded on its own.
 */
export function textStream(pieces: Iterable<string>): ReadableStream<Uint8Array> {
  const iterator = pieces[Symbol.iterator]();
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      const next = iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    cancel() {
      iterator.return?.();
    },
  });
}
