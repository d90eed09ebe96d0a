// The publish service's parts: organizations and keys, tasks with handles, coalesced rebuilds,
// get_generation, completion events through the webhook outbox, and the HTTP API. The composition
// root (src/lib/service/) puts them together with MCP and the static site.
export { openSqlitePublishStore, SQLITE_PUBLISH_MIGRATIONS } from './sqlite-store.ts';
export { openPostgresPublishStore, POSTGRES_PUBLISH_MIGRATIONS } from './postgres-store.ts';
export { UnknownOrganizationError, IDEMPOTENCY_WINDOW_MS } from './store.ts';
export type { PublishStore, Organization, ApiKeySummary, BuildCounts, Clock } from './store.ts';
export { createLocalCoordination } from './coordination.ts';
export type { Coordination, LeaseFence } from './coordination.ts';
export { createPostgresCoordination, LEASE_CHECK_MS, LEASE_DURATION_MS, LeaseLostError } from './postgres-coordination.ts';
export { PUBLISH_TOOL, PUBLISH_EVENTS } from './tasks.ts';
export type { GenerationProjection, RecordProblem, TaskStatus } from './tasks.ts';
export { OwnershipChangeError } from './garment-owners.ts';
export type { GarmentOwner, GarmentOwners, OwnershipOrigin } from './garment-owners.ts';
export { CALLBACK_URL_WARNING, submitPublish, readGeneration, statusUrlOf } from './submission.ts';
export type { PublishOutcome, PublishSubmission, Refusal, SubmissionContext, TaskStage } from './submission.ts';
export { createPublisher } from './publisher.ts';
export { checkSubmittedRecord, endedProjection, refusedRecordEnding } from './task-transitions.ts';
export type { Publisher } from './publisher.ts';
export { createApiHandler, TEST_EVENT, TEST_TOOL } from './api.ts';
export type { InstanceHealth, StorageReport } from './api.ts';
export { readGarmentSlugs } from './records-folder.ts';
export { bearerToken } from './keys.ts';
export { LONG_POLL_CAP_SECONDS } from './long-poll.ts';
export { DEFAULT_BODY_LIMIT_BYTES, declaresTooLarge, refuseTooLarge } from './request-body.ts';
export { runSiteBuildProcess } from './site-build-process.ts';
export type { SiteBuildOutcome, SiteBuildTarget } from './site-build-process.ts';
