// How the tests' receivers read a delivery: the signature checked with the service's own verifier
// over the raw bytes, then the body read into camelCase. Real receivers use the docs' example.
import { verifySignature } from '../../../../src/lib/webhooks/index.ts';

/** A delivered event as the tests read it. */
export interface ReceivedEvent {
  event: string;
  handle: string;
  tool: string;
  organizationId: string;
  deliveredAt: string;
  data: Record<string, unknown>;
}

/** Returns the event of a delivery whose signature verifies with one of `secrets`; throws with the reason otherwise. */
export function readVerifiedEvent(
  rawBody: Uint8Array,
  signatureHeader: string | string[] | undefined,
  options: { secrets: readonly string[]; now?: () => number },
): ReceivedEvent {
  if (typeof signatureHeader !== 'string') throw new Error('X-Svc-Signature header is missing or repeated');
  const check = verifySignature({ ...options, header: signatureHeader, body: rawBody });
  if (!check.accepted) throw new Error(`webhook signature rejected: ${check.reason}`);
  const wire = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(rawBody)) as Record<string, unknown>;
  return {
    event: wire.event as string,
    handle: wire.handle as string,
    tool: wire.tool as string,
    organizationId: wire.organization_id as string,
    deliveredAt: wire.delivered_at as string,
    data: wire.data as Record<string, unknown>,
  };
}
