import { InvalidEventError, parseEventBody } from './event-body.ts';
import type { ReceivedEvent } from './event-body.ts';
import { SignatureVerificationError, verifySignature } from './signature.ts';
import type { VerifySignatureInput } from './signature.ts';

/** What a receiver passes besides the raw body and header: its secrets, clock and tolerance. */
export type ReceiveOptions = Omit<VerifySignatureInput, 'header' | 'body'>;

/**
 * Verifies a delivery's signature over the raw body, then parses the event; throws
 * SignatureVerificationError (with `reason`) or InvalidEventError. The header may be passed
 * straight from Node's `req.headers['x-svc-signature']`.
 */
export function readVerifiedEvent(
  rawBody: Uint8Array,
  signatureHeader: string | string[] | undefined,
  options: ReceiveOptions,
): ReceivedEvent {
  if (signatureHeader === undefined) throw new SignatureVerificationError('X-Svc-Signature header is missing');
  if (Array.isArray(signatureHeader)) throw new SignatureVerificationError('X-Svc-Signature header appears more than once');
  const check = verifySignature({ ...options, header: signatureHeader, body: rawBody });
  if (!check.accepted) throw new SignatureVerificationError(check.reason);
  return parseEventBody(decodeUtf8(rawBody));
}

function decodeUtf8(body: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch (error) {
    throw new InvalidEventError('event body is not UTF-8 text', { cause: error });
  }
}
