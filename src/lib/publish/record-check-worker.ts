// A thread behind RecordCheckThread: judges each submitted record it is sent, one after another.
import { parentPort } from 'node:worker_threads';
import { errorMessage } from '../errors.ts';
import type { RecordCheckReply, RecordCheckRequest } from './record-check-thread.ts';
import { checkSubmittedRecord } from './task-transitions.ts';

if (parentPort) {
  const port = parentPort;
  port.on('message', ({ id, recordText }: RecordCheckRequest) => {
    let reply: RecordCheckReply;
    try {
      const checked = checkSubmittedRecord(recordText);
      reply =
        'problems' in checked
          ? { id, verdict: { problems: checked.problems } }
          : { id, verdict: { slug: checked.record.slug, projection: checked.record.projection } };
    } catch (error) {
      reply = { id, failure: errorMessage(error) };
    }
    port.postMessage(reply);
  });
}
