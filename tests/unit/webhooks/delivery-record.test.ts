import { describe, expect, it } from 'vitest';
import {
  type AttemptRow,
  attemptFromRow,
  deliveryToWire,
  describeAttempt,
  type EntryRow,
  entryFromRow,
  stateFromWire,
} from '../../../src/lib/webhooks/delivery-record.ts';

const T0 = Date.UTC(2026, 0, 1);
const ENTRY_ROW: EntryRow = {
  id: 118,
  organization_id: 'org_1',
  callback_url: 'https://hooks.example.com/in',
  event: 'publish.completed',
  handle: '6f1c2b0e-3a4d-4e5f-8a9b-0c1d2e3f4a5b',
  tool: 'garments.publish',
  state: 'accepted',
  attempts_made: 6,
  schedule_base: 5,
  attempt_limit: 5,
  next_attempt_at: null,
  created_at: T0,
};
const ATTEMPT_ROW: AttemptRow = {
  id: 7,
  entry_id: 118,
  attempt_number: 6,
  delivery_id: '0b8e7c1a-2f3d-4b5c-9e6f-7a8b9c0d1e2f',
  organization_id: 'org_1',
  event: 'publish.completed',
  handle: ENTRY_ROW.handle,
  callback_url: ENTRY_ROW.callback_url,
  request_headers: '{"X-Svc-Signature":"t=1767225600,v1=[redacted]"}',
  request_body: '{"event":"publish.completed"}',
  outcome: 'failed',
  status: 503,
  error: null,
  response_body_start: 'busy',
  retry_after: '30',
  duration_ms: 41,
  started_at: T0 + 1_000,
  finished_at: T0 + 1_041,
};

describe('entryFromRow and attemptFromRow', () => {
  it('turn epoch milliseconds into ISO times and keep the Retry-After as sent', () => {
    expect(entryFromRow(ENTRY_ROW)).toMatchObject({ attemptsBeforeRound: 5, nextAttemptAt: null, createdAt: '2026-01-01T00:00:00.000Z' });
    expect(attemptFromRow(ATTEMPT_ROW)).toMatchObject({
      requestHeaders: { 'X-Svc-Signature': 't=1767225600,v1=[redacted]' },
      retryAfter: '30',
      startedAt: '2026-01-01T00:00:01.000Z',
      finishedAt: '2026-01-01T00:00:01.041Z',
    });
    expect(attemptFromRow({ ...ATTEMPT_ROW, retry_after: null, finished_at: null })).toMatchObject({ retryAfter: null, finishedAt: null });
  });
});

describe('deliveryToWire', () => {
  it('names an accepted delivery "delivered", in snake_case, with its attempts and their Retry-After as sent', () => {
    const wire = deliveryToWire({ ...entryFromRow(ENTRY_ROW), attempts: [attemptFromRow(ATTEMPT_ROW)] });
    expect(wire).toMatchObject({ id: 118, outcome: 'delivered', attempts_made: 6, callback_url: 'https://hooks.example.com/in' });
    expect(wire.attempts[0]).toEqual({
      delivery_id: ATTEMPT_ROW.delivery_id,
      attempt_number: 6,
      outcome: 'failed',
      status: 503,
      error: null,
      retry_after: '30',
      request: { headers: { 'X-Svc-Signature': 't=1767225600,v1=[redacted]' }, body: '{"event":"publish.completed"}' },
      response_body_start: 'busy',
      duration_ms: 41,
      started_at: '2026-01-01T00:00:01.000Z',
      finished_at: '2026-01-01T00:00:01.041Z',
    });
  });
});

describe('stateFromWire', () => {
  it('reads the API outcome names back, and nothing else', () => {
    expect(['pending', 'delivered', 'given_up', 'accepted'].map(stateFromWire)).toEqual(['pending', 'accepted', 'given_up', undefined]);
  });
});

describe('describeAttempt', () => {
  it('says how the receiver answered, Retry-After included, without the signature', () => {
    expect(describeAttempt(attemptFromRow(ATTEMPT_ROW))).toBe(`webhook ${ENTRY_ROW.handle} attempt 6: failed, 503, Retry-After 30, 41 ms`);
    expect(describeAttempt(attemptFromRow({ ...ATTEMPT_ROW, status: null, error: 'timed out after 10000 ms', retry_after: null }))).toBe(
      `webhook ${ENTRY_ROW.handle} attempt 6: failed, timed out after 10000 ms, 41 ms`,
    );
  });
});
