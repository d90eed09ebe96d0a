import { createServer } from 'node:https';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ReceivedEvent, readVerifiedEvent } from './received-event.ts';
import type { TestCertificate } from './tls.ts';

/** How the receiver answers one request. */
export type Reply = { status: number; body?: string; headers?: Record<string, string> } | 'hang' | 'reset';

/** One request as the receiver saw it, with the library's verdict on its signature. */
export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** Header names in the order and case they arrived. */
  headerNames: string[];
  body: Buffer;
  /** 'accepted', or the rejection message. */
  verification: string;
  event?: ReceivedEvent;
  /** False when the event (its handle and event name) had already been processed. */
  firstForEvent?: boolean;
}

/** A real HTTPS receiver on loopback that verifies every request with the library. */
export interface TestReceiver {
  port: number;
  requests: ReceivedRequest[];
  /** Handles of the events processed, in order: each event once, deduplicated on its handle and event name. */
  processedHandles: string[];
  url(path?: string): string;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (an OS-chosen port) answering the nth request with `reply(n)`, n from 0. */
export async function startReceiver(options: {
  certificate: TestCertificate;
  secrets: () => string[];
  now: () => number;
  reply: (index: number, request: ReceivedRequest) => Reply;
}): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  const processedHandles: string[] = [];
  /** Events processed, by handle and event name: every retry of an event carries a new X-Svc-Delivery. */
  const processed = new Set<string>();
  const server = createServer({ key: options.certificate.key, cert: options.certificate.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = {
        path: req.url ?? '',
        headers: req.headers,
        headerNames: req.rawHeaders.filter((_value, index) => index % 2 === 0),
        body: Buffer.concat(chunks),
        verification: 'accepted',
      };
      try {
        received.event = readVerifiedEvent(received.body, req.headers['x-svc-signature'], { secrets: options.secrets(), now: options.now });
      } catch (error) {
        received.verification = (error as Error).message;
      }
      requests.push(received);
      const reply = options.reply(requests.length - 1, received);
      if (reply === 'reset') {
        req.socket.destroy();
        return;
      }
      if (reply === 'hang') return;
      if (reply.status >= 200 && reply.status < 300 && received.event !== undefined) {
        const { handle, event } = received.event;
        received.firstForEvent = !processed.has(`${handle} ${event}`);
        if (received.firstForEvent) {
          processed.add(`${handle} ${event}`);
          processedHandles.push(handle);
        }
      }
      answer(res, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    requests,
    processedHandles,
    url: (path = '/hooks/garment') => `https://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(res: ServerResponse, reply: { status: number; body?: string; headers?: Record<string, string> }): void {
  res.writeHead(reply.status, reply.headers);
  res.end(reply.body ?? '');
}
