// The publish service: organizations and keys, tasks with handles, coalesced rebuilds,
// get_generation, completion events through the webhook outbox, and the HTTP API.
export { startPublishService } from './service.ts';
export type { PublishService, PublishServiceOptions } from './service.ts';
export { openPublishStore, UnknownOrganizationError } from './store.ts';
export type { PublishStore, Organization, ApiKeySummary, BuildCounts } from './store.ts';
export { PUBLISH_TOOL, PUBLISH_EVENTS } from './tasks.ts';
export type { GenerationProjection, RecordProblem, TaskStatus } from './tasks.ts';
export { OwnershipChangeError } from './garment-owners.ts';
export type { GarmentOwner, GarmentOwners, OwnershipOrigin } from './garment-owners.ts';
export { submitPublish, statusUrlOf } from './submission.ts';
export type { PublishOutcome, PublishSubmission, Refusal, SubmissionContext } from './submission.ts';
export { readGarmentSlugs } from './records-folder.ts';
export { TEST_EVENT, TEST_TOOL } from './api.ts';
export { IDEMPOTENCY_WINDOW_MS } from './store.ts';
export { LONG_POLL_CAP_SECONDS } from './long-poll.ts';
export { DEFAULT_BODY_LIMIT_BYTES } from './request-body.ts';
