// The webhook machinery other areas use: signing and verification, the callback-URL policy,
// the durable outbox that delivers completion events, and receiver-side helpers.
export { signPayload, verifySignature, SignatureVerificationError, DEFAULT_TOLERANCE_SECONDS } from './signature.ts';
export type { VerifySignatureInput, SignatureCheck } from './signature.ts';
export { checkCallbackUrl, checkCallbackUrlForm, resolveWithSystemDns, CallbackUrlError } from './callback-url.ts';
export type { CallbackUrlPolicy, CallbackUrlCheck, HostResolver } from './callback-url.ts';
export { InvalidEventError } from './event-body.ts';
export type { CompletionEvent, ReceivedEvent } from './event-body.ts';
export { readVerifiedEvent } from './receive.ts';
export type { ReceiveOptions } from './receive.ts';
export { createEventDeduplicator } from './dedupe.ts';
export type { EventDeduplicator } from './dedupe.ts';
export { openOutbox, SECRET_WAIT_MS } from './outbox.ts';
export { MAX_ATTEMPTS, RETRY_DELAYS_MS } from './retry-schedule.ts';
export type { Outbox, OutboxOptions, AttemptSummary } from './outbox.ts';
export type {
  OutboxEntry,
  AttemptRecord,
  EntryState,
  AttemptOutcome,
  DeliveryRecord,
  DeliveryFilter,
  ResendResult,
} from './outbox-store.ts';
export type { StartTimer } from './delivery.ts';
export { silentRepair } from './callback-url.ts';
