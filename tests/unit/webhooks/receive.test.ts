import { describe, expect, it } from 'vitest';
import { buildEventBody, InvalidEventError } from '../../../src/lib/webhooks/event-body.ts';
import { readVerifiedEvent } from '../../../src/lib/webhooks/receive.ts';
import { signPayload, SignatureVerificationError } from '../../../src/lib/webhooks/signature.ts';

const SECRET = 'whsec_receiver_test';
const NOW = Date.UTC(2026, 4, 1);
const BODY = Buffer.from(
  buildEventBody(
    {
      event: 'design.failed',
      handle: '3f2b8c1e-0d4a-4f6e-9b7a-2c1d0e9f8a7b',
      tool: 'design.generate',
      organizationId: 'org_7',
      dataJson: '{"status":"failed","done":true,"error":"prompt rejected"}',
    },
    new Date(NOW),
  ),
);
const HEADER = signPayload(SECRET, NOW / 1000, BODY);
const options = { secrets: [SECRET], now: () => NOW };

describe('readVerifiedEvent', () => {
  it('returns the event of a delivery whose signature verifies', () => {
    const event = readVerifiedEvent(BODY, HEADER, options);
    expect(event).toMatchObject({ event: 'design.failed', organizationId: 'org_7', data: { status: 'failed' } });
  });

  it('throws SignatureVerificationError with the reason when the signature does not verify', () => {
    const tampered = Buffer.from(BODY.toString().replace('prompt rejected', 'prompt accepted'));
    expect(() => readVerifiedEvent(tampered, HEADER, options)).toThrow(SignatureVerificationError);
    expect(() => readVerifiedEvent(tampered, HEADER, options)).toThrow(
      'webhook signature rejected: no v1 signature matches the raw body with the given secret',
    );
  });

  it('throws InvalidEventError for a correctly signed body that is not UTF-8 text', () => {
    const body = Buffer.from([0x7b, 0xff, 0x7d]);
    expect(() => readVerifiedEvent(body, signPayload(SECRET, NOW / 1000, body), options)).toThrow(InvalidEventError);
  });

  it('throws when the signature header is missing', () => {
    expect(() => readVerifiedEvent(BODY, undefined, options)).toThrow('X-Svc-Signature header is missing');
  });
});
