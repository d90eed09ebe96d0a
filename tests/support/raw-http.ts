// HTTP/1.1 spoken by hand on one connection, for what fetch cannot do: a body sent too slowly, and
// requests pipelined behind one in flight. The answers are read back as status, headers and body.
import { connect, type Socket } from 'node:net';

/** One response read off the connection. */
export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** A connection to a server, written to in steps; `responses` resolves once the server closes it. */
export interface RawConnection {
  write(text: string): void;
  responses: Promise<RawResponse[]>;
}

/** Opens a connection to `url`'s host and port and resolves when it is open. */
export function openRawConnection(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket: Socket = connect(Number(port), hostname, () => resolve({ write: (text) => socket.write(text), responses }));
    const responses = new Promise<RawResponse[]>((settle, fail) => {
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => settle(parseResponses(Buffer.concat(chunks))));
      socket.on('error', fail);
    });
    // Read by whoever awaits it; a connection nobody reads any more must not fail the run.
    responses.catch(() => {});
    socket.once('error', reject);
  });
}

/** A request's head: request line and headers, ending with the blank line. */
export function requestHead(method: string, pathAndQuery: string, headers: Record<string, string>): string {
  const lines = Object.entries({ Host: '127.0.0.1', ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${pathAndQuery} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** The responses in what a server sent on one connection (Content-Length, chunked, or up to the close). */
function parseResponses(raw: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let at = 0;
  const line = () => {
    const end = raw.indexOf('\r\n', at);
    const text = raw.toString('latin1', at, end);
    at = end + 2;
    return text;
  };
  while (at < raw.length) {
    const status = Number(line().split(' ')[1]);
    const headers: Record<string, string> = {};
    for (let header = line(); header !== ''; header = line()) {
      const colon = header.indexOf(':');
      headers[header.slice(0, colon).toLowerCase()] = header.slice(colon + 1).trim();
    }
    const parts: Buffer[] = [];
    if (headers['transfer-encoding'] === 'chunked') {
      for (let size = Number.parseInt(line(), 16); size > 0; size = Number.parseInt(line(), 16)) {
        parts.push(raw.subarray(at, at + size));
        at += size + 2;
      }
      line();
    } else {
      const length = headers['content-length'] === undefined ? raw.length - at : Number(headers['content-length']);
      parts.push(raw.subarray(at, at + length));
      at += length;
    }
    responses.push({ status, headers, body: Buffer.concat(parts).toString('utf8') });
  }
  return responses;
}
