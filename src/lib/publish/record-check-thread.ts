import { Worker } from 'node:worker_threads';
import type { Problem } from '../record/index.ts';

/** What a submitted record's check says: where the record goes, or every error in it. */
export type RecordVerdict = { slug: string; projection: string } | { problems: Problem[] };

/** A record sent to the thread to be checked. */
export interface RecordCheckRequest {
  id: number;
  recordText: string;
}

/** The thread's answer to one request: the verdict, or why the check itself failed. */
export type RecordCheckReply = { id: number; verdict: RecordVerdict } | { id: number; failure: string };

/** A running thread and the checks it has been sent and not answered. */
interface CheckThread {
  worker: Worker;
  pending: Map<number, { resolve: (verdict: RecordVerdict) => void; reject: (error: Error) => void }>;
}

/**
 * Checks submitted records (checkSubmittedRecord) in a worker thread, so a burst of publishes is
 * judged beside the event loop that answers requests, not on it: a record takes 10 to 20 ms.
 * The thread starts with the first check and keeps the process alive only while it has work.
 */
export class RecordCheckThread {
  #thread: CheckThread | undefined;
  #nextId = 0;

  check(recordText: string): Promise<RecordVerdict> {
    const { worker, pending } = this.#started();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, recordText } satisfies RecordCheckRequest);
    });
  }

  /** Ends the thread; checks it had not answered are refused. */
  async close(): Promise<void> {
    const thread = this.#thread;
    this.#thread = undefined;
    await thread?.worker.terminate();
  }

  #started(): CheckThread {
    if (this.#thread) return this.#thread;
    const thread: CheckThread = { worker: new Worker(new URL('./record-check-worker.ts', import.meta.url)), pending: new Map() };
    const { worker, pending } = thread;
    worker.on('message', (reply: RecordCheckReply) => {
      const waiter = pending.get(reply.id);
      pending.delete(reply.id);
      if (pending.size === 0) worker.unref();
      if ('verdict' in reply) waiter?.resolve(reply.verdict);
      else waiter?.reject(new Error(`checking the record failed: ${reply.failure}`));
    });
    // A thread that ended (crashed, or closed) refuses what it held; the next check starts another.
    const refuseAll = (error: Error) => {
      if (this.#thread === thread) this.#thread = undefined;
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
    };
    worker.on('error', (error) => refuseAll(new Error(`the record check thread failed: ${error.message}`, { cause: error })));
    worker.on('exit', (code) => refuseAll(new Error(`the record check thread stopped (exit code ${code})`)));
    worker.unref();
    this.#thread = thread;
    return thread;
  }
}
