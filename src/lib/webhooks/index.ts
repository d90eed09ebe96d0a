// The webhook machinery other areas use: signing and verification, the callback-URL policy,
// and the durable outbox that delivers completion events.
export { signPayload, verifySignature, DEFAULT_TOLERANCE_SECONDS } from './signature.ts';
export type { VerifySignatureInput, SignatureCheck } from './signature.ts';
export { checkCallbackUrl, checkCallbackUrlForm, resolveWithSystemDns, CallbackUrlError } from './callback-url.ts';
export type { CallbackUrlPolicy, CallbackUrlCheck, HostResolver } from './callback-url.ts';
export { InvalidEventError } from './event-body.ts';
export type { CompletionEvent } from './event-body.ts';
export { openOutbox, SECRET_WAIT_MS } from './outbox.ts';
export type { Outbox, OutboxDatabase, OutboxOptions } from './outbox.ts';
export { MAX_ATTEMPTS, RETRY_DELAYS_MS } from './retry-schedule.ts';
export type { EntryState } from './retry-schedule.ts';
export { deliveryToWire, describeAttempt, stateFromWire } from './delivery-record.ts';
export type { Attempt, AttemptOutcome, Delivery, DeliveryFilter, OutboxEntry } from './delivery-record.ts';
export type { ResendResult } from './outbox-store.ts';
export type { StartTimer } from './delivery.ts';
export { silentRepair } from './callback-url.ts';
