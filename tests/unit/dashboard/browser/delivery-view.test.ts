import { describe, expect, it } from 'vitest';
import {
  answerText,
  attemptView,
  countMessage,
  deliveriesQuery,
  deliveryView,
  fillMessage,
  refusalText,
  stateText,
  testResultText,
  timeView,
} from '../../../../src/lib/dashboard/browser/delivery-view.ts';
import { dashboardMessages } from '../../../../src/lib/dashboard/dashboard-messages.ts';
import type { WireAttempt, WireDelivery } from '../../../../src/lib/webhooks/delivery-record.ts';

/** The words the page passes its script. */
const messages = dashboardMessages();

/** A failed first attempt as the API lists it; each test changes one thing. */
function failedAttempt(): WireAttempt {
  return {
    delivery_id: '0b6a3c1e-1d2f-4e5a-9b8c-7d6e5f4a3b2c',
    attempt_number: 1,
    outcome: 'failed',
    status: 503,
    error: null,
    retry_after: '30',
    request: {
      headers: {
        'Content-Type': 'application/json',
        'X-Svc-Delivery': '0b6a3c1e-1d2f-4e5a-9b8c-7d6e5f4a3b2c',
        'X-Svc-Signature': 't=1,v1=…',
      },
      body: '{"event":"publish.completed"}',
    },
    response_body_start: 'down for maintenance',
    duration_ms: 41,
    started_at: '2026-11-29T20:10:03.412Z',
    finished_at: '2026-11-29T20:10:03.453Z',
  };
}

function pendingDelivery(): WireDelivery {
  return {
    id: 118,
    handle: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
    event: 'publish.completed',
    tool: 'garments.publish',
    callback_url: 'https://hooks.example.com/garment',
    outcome: 'pending',
    attempts_made: 1,
    next_attempt_at: '2026-11-29T20:11:03.453Z',
    created_at: '2026-11-29T20:10:03.000Z',
    attempts: [failedAttempt()],
  };
}

describe('timeView', () => {
  it('shows an ISO time in UTC to the second and keeps the ISO value', () => {
    expect(timeView('2026-11-29T20:10:03.412Z', messages)).toEqual({ text: '2026-11-29 20:10:03 UTC', iso: '2026-11-29T20:10:03.412Z' });
  });

  it('shows a time it cannot read as it came', () => {
    expect(timeView('yesterday', messages).text).toBe('yesterday');
  });
});

describe('stateText', () => {
  it('names a delivery awaiting retry with its next attempt time', () => {
    expect(stateText(pendingDelivery(), messages)).toBe('Awaiting retry: next attempt at 2026-11-29 20:11:03 UTC');
  });

  it('names a delivered event and one given up with its attempts counted', () => {
    expect(stateText({ ...pendingDelivery(), outcome: 'delivered', next_attempt_at: null }, messages)).toBe('Delivered');
    expect(stateText({ ...pendingDelivery(), outcome: 'given_up', next_attempt_at: null, attempts_made: 5 }, messages)).toBe(
      'Given up after 5 attempts',
    );
    expect(stateText({ ...pendingDelivery(), outcome: 'given_up', next_attempt_at: null, attempts_made: 1 }, messages)).toBe(
      'Given up after 1 attempt',
    );
  });
});

describe('answerText', () => {
  it('gives the status when the receiver answered', () => {
    expect(answerText(failedAttempt(), messages)).toBe('HTTP 503');
    expect(answerText({ ...failedAttempt(), status: 302, error: 'redirects are not followed' }, messages)).toBe(
      'HTTP 302 (redirects are not followed)',
    );
  });

  it('gives the reason when no answer came', () => {
    expect(answerText({ ...failedAttempt(), status: null, error: null }, messages)).toBe('No answer: unknown failure');
    expect(answerText({ ...failedAttempt(), status: null, error: null, outcome: 'interrupted' }, messages)).toBe('Interrupted');
    expect(answerText({ ...failedAttempt(), status: null, error: 'timed out after 10000 ms' }, messages)).toBe(
      'No answer: timed out after 10000 ms',
    );
    expect(answerText({ ...failedAttempt(), status: null, error: null, outcome: 'in_flight' }, messages)).toBe(
      'Sent; waiting for the answer',
    );
    expect(answerText({ ...failedAttempt(), status: null, error: 'the instance stopped', outcome: 'interrupted' }, messages)).toBe(
      'Interrupted: the instance stopped',
    );
  });
});

describe('attemptView', () => {
  it('keeps what was sent exactly and how the receiver answered', () => {
    const view = attemptView(failedAttempt(), messages);
    expect(view).toMatchObject({
      title: 'Attempt 1',
      summary: 'HTTP 503 · 41 ms · 2026-11-29 20:10:03 UTC',
      deliveryId: '0b6a3c1e-1d2f-4e5a-9b8c-7d6e5f4a3b2c',
      accepted: false,
      retryAfter: '30',
      responseExcerpt: 'down for maintenance',
      body: '{"event":"publish.completed"}',
    });
    expect(view.headers[1]).toEqual(['X-Svc-Delivery', '0b6a3c1e-1d2f-4e5a-9b8c-7d6e5f4a3b2c']);
  });

  it('has no excerpt when nothing came back, and no duration while in flight', () => {
    const view = attemptView(
      { ...failedAttempt(), outcome: 'in_flight', status: null, response_body_start: '', duration_ms: null },
      messages,
    );
    expect(view.responseExcerpt).toBeNull();
    expect(view.duration).toBe('not finished');
  });
});

describe('deliveryView', () => {
  it('offers a resend unless an attempt is in flight', () => {
    expect(deliveryView(pendingDelivery(), messages).canResend).toBe(true);
    const inFlight = {
      ...pendingDelivery(),
      attempts: [failedAttempt(), { ...failedAttempt(), attempt_number: 2, outcome: 'in_flight' as const }],
    };
    expect(deliveryView(inFlight, messages).canResend).toBe(false);
  });

  it('keeps the attempts oldest first', () => {
    const two = { ...pendingDelivery(), attempts: [failedAttempt(), { ...failedAttempt(), attempt_number: 2 }] };
    expect(deliveryView(two, messages).attempts.map((attempt) => attempt.title)).toEqual(['Attempt 1', 'Attempt 2']);
  });
});

describe('deliveriesQuery', () => {
  it('asks for a page of 20, a handle trimmed and lower-cased, and the page after one', () => {
    expect(deliveriesQuery({ handle: ' 6F1C ', before: 118 })).toBe('?limit=20&handle=6f1c&before=118');
    expect(deliveriesQuery({ handle: '', before: null })).toBe('?limit=20');
  });
});

describe('refusalText', () => {
  it("says the API's refusal in words", () => {
    const body = '{"error":{"code":"invalid_api_key","message":"the API key is unknown or revoked"}}';
    expect(refusalText(401, body, messages)).toBe('The service refused: the API key is unknown or revoked (HTTP 401, invalid_api_key).');
  });

  it('gives the status alone for an answer that is not the API error shape', () => {
    expect(refusalText(502, '<html>Bad gateway</html>', messages)).toBe('The service answered HTTP 502 without an explanation.');
  });
});

describe('testResultText', () => {
  it('says whether the receiver took the test event', () => {
    expect(testResultText(deliveryView({ ...pendingDelivery(), outcome: 'given_up' }, messages), messages)).toBe(
      'The test event was not accepted: HTTP 503.',
    );
    const accepted = { ...failedAttempt(), outcome: 'accepted' as const, status: 200 };
    expect(testResultText(deliveryView({ ...pendingDelivery(), attempts: [accepted] }, messages), messages)).toBe(
      'The receiver accepted the test event: HTTP 200.',
    );
  });
});

describe('fillMessage', () => {
  it('fills named placeholders in one pass, a value holding a placeholder left as it is', () => {
    expect(fillMessage(messages.resent, { event: 'publish.completed', handle: '{event}' })).toBe(
      'The publish.completed event of {event} is sent again: a new round of attempts has started.',
    );
  });

  it('leaves a placeholder without a value visible', () => {
    expect(fillMessage('HTTP {status} ({error})', { status: 302 })).toBe('HTTP 302 ({error})');
  });
});

describe('countMessage', () => {
  it('chooses the one or many form by count and fills the other values', () => {
    expect(countMessage(messages.attempts, 1)).toBe('1 attempt');
    expect(countMessage(messages.attempts, 0)).toBe('0 attempts');
    expect(countMessage(messages.logCountForHandle, 20, { handle: '6f1c' })).toBe('20 deliveries for handle 6f1c, newest first.');
  });

  it('writes a count as the site writes counts, with a thousands separator', () => {
    expect(countMessage(messages.attempts, 1200)).toBe('1,200 attempts');
  });
});
