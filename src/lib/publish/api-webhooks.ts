import { randomUUID } from 'node:crypto';
import { checkCallbackUrl, deliveryToWire, stateFromWire } from '../webhooks/index.ts';
import { ApiRefusal, type RouteHandler, readWholeNumber, sendJson } from './api-context.ts';
import { projectTask } from './tasks.ts';

/** The event a test delivery carries: a category of its own, so no receiver takes it for a publish. */
export const TEST_EVENT = 'test.completed';
/** The tool a test delivery names. */
export const TEST_TOOL = 'webhooks.send_test';

const DELIVERIES_PAGE_MAX = 100;
const DELIVERY_QUERY = ['handle', 'event', 'outcome', 'limit', 'before'];

/** `GET /api/webhooks/deliveries`: the organization's deliveries, newest first, filtered and paged. */
export const listDeliveries: RouteHandler = async ({ authenticate, outbox }, request, response, url) => {
  const organizationId = await authenticate(request);
  const query = url.searchParams;
  const unknown = [...new Set(query.keys())].filter((name) => !DELIVERY_QUERY.includes(name));
  if (unknown.length > 0)
    throw new ApiRefusal(
      400,
      'invalid_query',
      `unknown query parameter ${JSON.stringify(unknown[0]!.slice(0, 40))}; expected handle, event, outcome, limit or before`,
    );
  const limit = readWholeNumber(query.get('limit'), 'limit', 1, DELIVERIES_PAGE_MAX) ?? 50;
  const before = readWholeNumber(query.get('before'), 'before', 1, Number.MAX_SAFE_INTEGER);
  const outcome = query.get('outcome');
  const state = outcome === null ? undefined : stateFromWire(outcome);
  if (outcome !== null && state === undefined) {
    throw new ApiRefusal(
      400,
      'invalid_query',
      `outcome: expected pending, delivered or given_up, got ${JSON.stringify(outcome.slice(0, 40))}`,
    );
  }
  const handle = query.get('handle');
  const event = query.get('event');
  const deliveries = await outbox.listDeliveries(
    organizationId,
    {
      ...(handle === null ? {} : { handle: handle.toLowerCase() }),
      ...(event === null ? {} : { event }),
      ...(state === undefined ? {} : { state }),
    },
    { limit, ...(before === undefined ? {} : { beforeId: before }) },
  );
  const last = deliveries.at(-1);
  const page = {
    deliveries: deliveries.map(deliveryToWire),
    next_before: deliveries.length === limit && last !== undefined ? last.id : null,
  };
  sendJson(response, 200, JSON.stringify(page));
};

/** `POST /api/webhooks/deliveries/<handle>/resend`: sends an event again, unless an attempt at it is in flight. */
export const resend: RouteHandler = async ({ authenticate, outbox }, request, response, _url, asked = '') => {
  const organizationId = await authenticate(request);
  const resent = await outbox.resend(organizationId, asked.toLowerCase());
  if (!resent.ok && resent.reason === 'not_found')
    throw new ApiRefusal(404, 'not_found', `no delivery for handle ${JSON.stringify(asked.slice(0, 64))} for this organization`);
  if (!resent.ok)
    throw new ApiRefusal(409, 'attempt_in_flight', 'an attempt at this event is being made now; resend once it is recorded', {
      'Retry-After': '10',
    });
  const [delivery] = await outbox.listDeliveries(organizationId, { handle: resent.entry.handle }, { limit: 1 });
  sendJson(response, 202, JSON.stringify({ delivery: deliveryToWire(delivery!) }));
};

/** `POST /api/webhooks/test`: one signed test event to a callback URL, answered with its attempt. */
export const sendTestEvent: RouteHandler = async (context, request, response) => {
  const { authenticate, readRequestBody, outbox, callbackPolicy, testEventWaitMs } = context;
  const organizationId = await authenticate(request);
  const bytes = await readRequestBody(request);
  if (bytes === undefined) return;
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ApiRefusal(400, 'invalid_json', 'expected { "callback_url": "https://..." }');
  }
  const callbackUrl = (body as { callback_url?: unknown } | null)?.callback_url;
  if (typeof callbackUrl !== 'string') throw new ApiRefusal(400, 'invalid_request', 'expected { "callback_url": "https://..." }');
  const check = await checkCallbackUrl(callbackUrl, callbackPolicy);
  if (!check.allowed) throw new ApiRefusal(422, 'callback_url_refused', `callback_url refused: ${check.reason}`);
  const handle = randomUUID();
  const data = projectTask({
    handle,
    resourceId: '',
    status: 'complete',
    progress: 1,
    stage: 'test event: nothing was published',
    pageUrl: '',
    error: '',
    supersededBy: null,
  });
  await outbox.enqueue(
    { event: TEST_EVENT, handle, tool: TEST_TOOL, organizationId, dataJson: JSON.stringify(data), callbackUrl },
    { attemptLimit: 1 },
  );
  await outbox.waitForAttempt(handle, 0, testEventWaitMs);
  const [delivery] = await outbox.listDeliveries(organizationId, { handle }, { limit: 1 });
  sendJson(response, 200, JSON.stringify({ delivery: deliveryToWire(delivery!) }));
};

/** `GET /api/webhooks/secret`: the organization's signing secret. */
export const revealSecret: RouteHandler = async ({ authenticate, store }, request, response) => {
  const organizationId = await authenticate(request);
  sendJson(response, 200, JSON.stringify({ organization_id: organizationId, signing_secret: await store.signingSecret(organizationId) }));
};

/** `POST /api/webhooks/secret/rotate`: a new signing secret; the old one stops verifying at once. */
export const rotateSecret: RouteHandler = async ({ authenticate, store }, request, response) => {
  const organizationId = await authenticate(request);
  const secret = await store.rotateSigningSecret(organizationId);
  sendJson(response, 200, JSON.stringify({ organization_id: organizationId, signing_secret: secret }));
};
