// The publish service as one process: the composition root above publish/, mcp/ and webhooks/.
export { startPublishService } from './service.ts';
export type { PublishService, PublishServiceOptions } from './service.ts';
export { defaultInstanceName, openServiceStores } from './stores.ts';
export type { ServiceStores } from './stores.ts';
