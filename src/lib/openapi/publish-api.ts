// The publish API's contract as OpenAPI 3.1 (schemas are JSON Schema 2020-12): every operation
// under /api/ with its parameters, headers, bodies and statuses, and the completion webhooks the
// service sends. Served at /openapi.json; the contract tests hold the running service to it.
import packageJson from '../../../package.json' with { type: 'json' };
import { DISK_FULL_BELOW_BYTES } from '../disk-space.ts';
import {
  CALLBACK_URL_WARNING,
  DEFAULT_BODY_LIMIT_BYTES,
  LONG_POLL_CAP_SECONDS,
  PUBLISH_EVENTS,
  PUBLISH_TOOL,
  TEST_EVENT,
  TEST_TOOL,
} from '../publish/index.ts';
import { API_DOCS_PATH, SCHEMA_PATH, WEBHOOK_DOCS_PATH } from '../site/urls.ts';
import { RETRY_DELAYS_MS } from '../webhooks/index.ts';

/** Where the document is served. */
export const OPENAPI_PATH = '/openapi.json';

/** A JSON value of the document. */
type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const text = (description: string, extra: Json = {}) => ({ type: 'string', description, ...extra });
const json = (schema: Json) => ({ 'application/json': { schema } });

const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,255}$';
const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/**
 * A callback URL: an absolute https URL kept as written, so no `format: uri`: an internationalised
 * host or a | in the path, which the service takes, is no RFC 3986 URI.
 */
const CALLBACK_URL_TEXT = 'An absolute https URL with a public host, kept as written (an internationalised host stays as it is).';

const schemas: Json = {
  Error: {
    type: 'object',
    description: 'Every refusal: a code a program can branch on and a sentence for people.',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        additionalProperties: false,
        properties: {
          code: text('For example invalid_api_key, not_found, callback_url_refused.'),
          message: text('What was wrong and what to do.'),
        },
      },
    },
  },
  PublishAccepted: {
    type: 'object',
    required: ['handle', 'status_url'],
    additionalProperties: false,
    properties: {
      handle: text("The task's handle (a UUID).", { pattern: UUID_PATTERN }),
      status_url: text('Where to poll the task: /api/generations/<handle>.', { pattern: '^/api/generations/' }),
      callback_url_warning: text(CALLBACK_URL_WARNING),
    },
  },
  PublishEnvelope: {
    type: 'object',
    description: 'The record wrapped, with the callback URL beside it. Given as text, the record is published byte for byte.',
    required: ['record'],
    additionalProperties: false,
    properties: {
      record: { oneOf: [{ $ref: SCHEMA_PATH }, text("The record's JSON text.")] },
      callback_url: { type: ['string', 'null'], description: `Where to send the completion event. ${CALLBACK_URL_TEXT}` },
    },
  },
  Generation: {
    type: 'object',
    description: 'Where a publish task stands (get_generation); also the data of its completion event, byte for byte.',
    required: ['handle', 'resource_id', 'status', 'done', 'progress', 'stage', 'page_url', 'error', 'problems', 'superseded_by'],
    additionalProperties: false,
    properties: {
      handle: text("The task's handle.", { pattern: UUID_PATTERN }),
      resource_id: text('<slug>/<projection> once the record is known to be valid, else "".'),
      status: { type: 'string', enum: ['queued', 'running', 'complete', 'failed', 'superseded'] },
      done: { type: 'boolean', description: 'True at complete, failed and superseded.' },
      progress: { type: 'number', minimum: 0, maximum: 1 },
      stage: text('What the task is doing, e.g. "building site".'),
      page_url: text('The record\'s page once complete, else "".'),
      error: text('Why the task failed or was superseded, else "".'),
      problems: {
        type: 'array',
        description: 'Every problem of a record that does not validate.',
        items: {
          type: 'object',
          required: ['pointer', 'message'],
          additionalProperties: false,
          properties: {
            pointer: text('A JSON pointer into the record: where a value is wrong, or where a missing required property belongs.'),
            message: { type: 'string' },
          },
        },
      },
      superseded_by: { type: ['string', 'null'], description: 'For a superseded task, the handle whose publish went live.' },
    },
  },
  Attempt: {
    type: 'object',
    description: 'One delivery attempt: what was sent (the signature redacted) and how the receiver answered.',
    required: ['delivery_id', 'attempt_number', 'outcome', 'status', 'error', 'request', 'started_at', 'finished_at'],
    additionalProperties: false,
    properties: {
      delivery_id: text('The X-Svc-Delivery id sent; new for every attempt.', { format: 'uuid' }),
      attempt_number: {
        type: 'integer',
        minimum: 1,
        description: `1 to ${RETRY_DELAYS_MS.length} in the first round; a resend's round goes on counting (${RETRY_DELAYS_MS.length + 1}, ${RETRY_DELAYS_MS.length + 2}, …).`,
      },
      outcome: { type: 'string', enum: ['in_flight', 'accepted', 'failed', 'interrupted'] },
      status: { type: ['integer', 'null'], description: "The receiver's HTTP status; null when it gave none." },
      error: { type: ['string', 'null'] },
      retry_after: {
        type: ['string', 'null'],
        description: "The receiver's Retry-After on a 429 or 503, as sent; recorded only: the next attempt keeps the fixed retry schedule.",
      },
      request: {
        type: 'object',
        required: ['headers', 'body'],
        additionalProperties: false,
        properties: { headers: { type: 'object', additionalProperties: { type: 'string' } }, body: { type: 'string' } },
      },
      response_body_start: { type: ['string', 'null'] },
      duration_ms: { type: ['number', 'null'] },
      started_at: { type: 'string', format: 'date-time' },
      finished_at: { type: ['string', 'null'], format: 'date-time' },
    },
  },
  Delivery: {
    type: 'object',
    description: "One event's delivery to its callback URL, with every attempt.",
    required: ['id', 'handle', 'event', 'tool', 'callback_url', 'outcome', 'attempts_made', 'next_attempt_at', 'created_at', 'attempts'],
    additionalProperties: false,
    properties: {
      id: { type: 'integer', minimum: 1, description: 'Pass as before for the next page.' },
      handle: { type: 'string' },
      event: { type: 'string', enum: [PUBLISH_EVENTS.complete, PUBLISH_EVENTS.failed, TEST_EVENT] },
      tool: { type: 'string', enum: [PUBLISH_TOOL, TEST_TOOL] },
      callback_url: text(CALLBACK_URL_TEXT),
      outcome: { type: 'string', enum: ['pending', 'delivered', 'given_up'] },
      attempts_made: { type: 'integer', minimum: 0 },
      next_attempt_at: { type: ['string', 'null'], format: 'date-time', description: 'Null once delivered or given up.' },
      created_at: { type: 'string', format: 'date-time' },
      attempts: { type: 'array', items: ref('Attempt') },
    },
  },
  DeliveryAnswer: { type: 'object', required: ['delivery'], additionalProperties: false, properties: { delivery: ref('Delivery') } },
  SigningSecret: {
    type: 'object',
    required: ['organization_id', 'signing_secret'],
    additionalProperties: false,
    properties: {
      organization_id: { type: 'string' },
      signing_secret: text("The organization's webhook signing secret.", { pattern: '^whsec_' }),
    },
  },
  InstanceState: {
    type: 'object',
    description: 'What every health answer says: this instance, its database and who builds.',
    required: ['instance', 'database', 'build_lease', 'databases', 'disk'],
    properties: {
      instance: text('The instance answering (--instance; default host:pid).'),
      database: {
        type: 'object',
        required: ['kind', 'answers'],
        additionalProperties: false,
        properties: {
          kind: { type: 'string', enum: ['sqlite', 'postgresql'] },
          answers: { type: 'boolean', description: 'Whether it answered a small read in time (2 s).' },
          error: text('Why it did not answer; absent when it does.'),
        },
      },
      build_lease: {
        type: 'object',
        description: 'One instance builds at a time: the one holding the lease.',
        required: ['holder', 'held_here'],
        additionalProperties: false,
        properties: {
          holder: {
            type: ['string', 'null'],
            description: 'The instance holding it; null while nobody does (an instance is taking over).',
          },
          held_here: { type: 'boolean' },
        },
      },
      databases: {
        type: 'array',
        description: 'The SQLite files (publish.db, outbox.db) as found now; empty on PostgreSQL, whose state is database.answers.',
        items: {
          type: 'object',
          required: ['database', 'state'],
          additionalProperties: false,
          properties: {
            database: text('The file name.'),
            state: { type: 'string', enum: ['ok', 'missing', 'damaged', 'disk_full'] },
            message: text('What is wrong and what to do; absent when ok.'),
          },
        },
      },
      disk: {
        type: 'object',
        description: `A disk with less than ${DISK_FULL_BELOW_BYTES} bytes free counts as full: publishes are refused with 507 until space is freed.`,
        required: ['state', 'reserve', 'folders'],
        additionalProperties: false,
        properties: {
          state: { type: 'string', enum: ['ok', 'full'] },
          reserve: {
            type: 'string',
            enum: ['kept', 'given_up'],
            description: "The data folder's space reserve; given_up while the disk is full but for it.",
          },
          folders: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'free_bytes', 'full'],
              additionalProperties: false,
              properties: {
                name: { type: 'string', enum: ['data', 'records'] },
                free_bytes: { type: ['integer', 'null'], minimum: 0, description: 'Null where the system does not say.' },
                full: { type: 'boolean' },
              },
            },
          },
        },
      },
    },
  },
  Health: {
    type: 'object',
    description: 'The service answers: "attention" when a disk is full or a broken record file was set aside.',
    allOf: [ref('InstanceState')],
    required: ['status', 'builds', 'records_folder'],
    unevaluatedProperties: false,
    properties: {
      status: { type: 'string', enum: ['ok', 'attention'] },
      builds: {
        type: 'object',
        description: 'Site builds, by every instance on this database, and by this process since it started.',
        required: ['started', 'succeeded', 'failed', 'this_run'],
        additionalProperties: false,
        properties: {
          started: { type: 'integer', minimum: 0 },
          succeeded: { type: 'integer', minimum: 0 },
          failed: { type: 'integer', minimum: 0 },
          this_run: { type: 'integer', minimum: 0 },
        },
      },
      records_folder: {
        type: 'object',
        required: ['set_aside'],
        additionalProperties: false,
        properties: {
          set_aside: {
            type: 'array',
            description: 'Broken record files no publish brought, renamed so builds go on without them.',
            items: {
              type: 'object',
              required: ['file', 'set_aside_as', 'problems', 'at'],
              additionalProperties: false,
              properties: {
                file: text('Its name in the records folder.'),
                set_aside_as: text('Its new name: fix it, then rename it back.'),
                problems: { type: 'array', items: text('file: /pointer: message') },
                at: { type: 'string', format: 'date-time' },
              },
            },
          },
        },
      },
    },
  },
  HealthFailing: {
    type: 'object',
    description: 'The service cannot serve: a database does not answer, or a SQLite file is missing, damaged or on a full disk.',
    allOf: [ref('InstanceState')],
    required: ['status'],
    unevaluatedProperties: false,
    properties: { status: { const: 'failing' } },
  },
  Event: {
    type: 'object',
    description: `The completion event (spec 2.2): one per task that ends, sent to its callback_url.`,
    required: ['event', 'handle', 'tool', 'organization_id', 'delivered_at', 'data'],
    additionalProperties: false,
    properties: {
      event: text('Same as the X-Svc-Event header.'),
      handle: text('The handle the tool call returned.', { pattern: UUID_PATTERN }),
      tool: { type: 'string' },
      organization_id: { type: 'string' },
      delivered_at: text('When this attempt was sent (ISO 8601 UTC, milliseconds).', { format: 'date-time' }),
      data: ref('Generation'),
    },
  },
};

const errorContent = json(ref('Error'));
const wwwAuthenticate = {
  'WWW-Authenticate': {
    description: 'Bearer realm="garment-press"; error="invalid_token" for a key that is unknown or revoked.',
    required: true,
    schema: { type: 'string', pattern: '^Bearer realm="garment-press"' },
  },
};
const retryAfter = (description: string) => ({
  'Retry-After': { description, required: true, schema: { type: 'string', pattern: '^\\d+$' } },
});

const responses: Json = {
  BadRequest: { description: 'The request is malformed; the error says what and where.', content: errorContent },
  Unauthorized: {
    description: 'No API key, another scheme, or a key that is unknown or revoked.',
    headers: wwwAuthenticate,
    content: errorContent,
  },
  NotFound: {
    description: "No such handle for this organization (another organization's handle answers the same).",
    content: errorContent,
  },
  PayloadTooLarge: {
    description: `The body is over the limit (${DEFAULT_BODY_LIMIT_BYTES} bytes by default); refused before it is read when declared.`,
    content: errorContent,
  },
  UnsupportedMediaType: { description: 'A multipart body; send application/json.', content: errorContent },
  CallbackRefused: {
    description: 'callback_url is not https, too long, or points at a loopback, private, .internal or .local host.',
    content: errorContent,
  },
  RequestTimeout: { description: 'The request was not whole within the body timeout (30 s by default); the connection is closed.' },
  InsufficientStorage: {
    description: "The service's disk is full: nothing was written; publish again once the operator has freed space.",
    content: errorContent,
  },
  ShuttingDown: {
    description: 'The service is stopping; send again in a moment.',
    headers: retryAfter('Seconds to wait.'),
    content: errorContent,
  },
};

const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Retry safely: the same key with the same request within 24 hours answers the first task (Idempotent-Replayed: true).',
  schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN },
};
const handlePathParameter = (description: string) => ({
  name: 'handle',
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', maxLength: 64 },
});
const secured = [{ apiKey: [] }];

const paths: Json = {
  '/api/publish': {
    post: {
      operationId: 'publish',
      summary: 'Publish a record',
      description: `Queues a task that writes the record and rebuilds the site; follow it with the status URL or a callback (${PUBLISH_EVENTS.complete} or ${PUBLISH_EVENTS.failed}). The record is checked by the task: an invalid one fails it with every problem.`,
      security: secured,
      parameters: [
        idempotencyKeyParameter,
        {
          name: 'callback_url',
          in: 'query',
          required: false,
          description: `With the record as the body: where to send the completion event. ${CALLBACK_URL_TEXT}`,
          schema: { type: 'string' },
        },
      ],
      requestBody: {
        required: true,
        content: json({ anyOf: [{ $ref: SCHEMA_PATH }, ref('PublishEnvelope')] }),
      },
      responses: {
        '202': {
          description: 'The task is queued (or, for a repeated Idempotency-Key, the first one is answered).',
          headers: {
            Location: { description: 'The status URL.', required: true, schema: { type: 'string', pattern: '^/api/generations/' } },
            'Idempotent-Replayed': {
              description: 'Present when an earlier request with the same Idempotency-Key made this task.',
              required: false,
              schema: { type: 'string', enum: ['true'] },
            },
          },
          content: json(ref('PublishAccepted')),
        },
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '403': {
          description: 'The garment belongs to another organization, or to none yet (the operator grants it).',
          content: errorContent,
        },
        '409': { description: 'The Idempotency-Key was used in the last 24 hours for another request.', content: errorContent },
        '408': responseRef('RequestTimeout'),
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '422': responseRef('CallbackRefused'),
        '503': responseRef('ShuttingDown'),
        '507': responseRef('InsufficientStorage'),
      },
    },
  },
  '/api/generations/{handle}': {
    get: {
      operationId: 'getGeneration',
      summary: 'Follow a publish task (long poll)',
      description: `With wait, answers as soon as the task ends or after that many seconds (at most ${LONG_POLL_CAP_SECONDS}), whichever is first.`,
      security: secured,
      parameters: [
        handlePathParameter('The handle the publish answered.'),
        {
          name: 'wait',
          in: 'query',
          required: false,
          description: `Seconds to wait for the end, 0 to ${LONG_POLL_CAP_SECONDS} (more is capped).`,
          schema: { type: 'string', pattern: '^\\d+(\\.\\d+)?$' },
        },
      ],
      responses: {
        '200': { description: 'Where the task stands: byte for byte the data of its completion event.', content: json(ref('Generation')) },
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('NotFound'),
      },
    },
  },
  '/api/webhooks/deliveries': {
    get: {
      operationId: 'listDeliveries',
      summary: 'List webhook deliveries, newest first',
      security: secured,
      parameters: [
        { name: 'handle', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'event', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'outcome', in: 'query', required: false, schema: { type: 'string', enum: ['pending', 'delivered', 'given_up'] } },
        { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
        {
          name: 'before',
          in: 'query',
          required: false,
          description: 'next_before of the previous page.',
          schema: { type: 'integer', minimum: 1 },
        },
      ],
      responses: {
        '200': {
          description: 'A page of deliveries.',
          content: json({
            type: 'object',
            required: ['deliveries', 'next_before'],
            additionalProperties: false,
            properties: { deliveries: { type: 'array', items: ref('Delivery') }, next_before: { type: ['integer', 'null'] } },
          }),
        },
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
      },
    },
  },
  '/api/webhooks/deliveries/{handle}/resend': {
    post: {
      operationId: 'resendDelivery',
      summary: "Send a task's event again",
      description: `Starts a new round of up to ${RETRY_DELAYS_MS.length} attempts, each with a new X-Svc-Delivery.`,
      security: secured,
      parameters: [handlePathParameter('The handle of the task whose event to send again.')],
      responses: {
        '202': { description: 'The delivery, rescheduled.', content: json(ref('DeliveryAnswer')) },
        '401': responseRef('Unauthorized'),
        '404': responseRef('NotFound'),
        '409': {
          description: 'An attempt at this event is being made now.',
          headers: retryAfter('Seconds until resending may work.'),
          content: errorContent,
        },
        '503': responseRef('ShuttingDown'),
      },
    },
  },
  '/api/webhooks/test': {
    post: {
      operationId: 'sendTestEvent',
      summary: `Send a signed ${TEST_EVENT} event`,
      description: 'One attempt, answered once the receiver has answered (or timed out); nothing is published.',
      security: secured,
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['callback_url'],
          properties: { callback_url: text(CALLBACK_URL_TEXT) },
        }),
      },
      responses: {
        '200': { description: 'The test delivery and its attempt.', content: json(ref('DeliveryAnswer')) },
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '408': responseRef('RequestTimeout'),
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '422': responseRef('CallbackRefused'),
        '503': responseRef('ShuttingDown'),
      },
    },
  },
  '/api/webhooks/secret': {
    get: {
      operationId: 'revealSigningSecret',
      summary: "Reveal the organization's signing secret (made on first request)",
      security: secured,
      responses: { '200': { description: 'The secret.', content: json(ref('SigningSecret')) }, '401': responseRef('Unauthorized') },
    },
  },
  '/api/webhooks/secret/rotate': {
    post: {
      operationId: 'rotateSigningSecret',
      summary: 'Replace the signing secret; the old one stops verifying at once',
      security: secured,
      responses: {
        '200': { description: 'The new secret.', content: json(ref('SigningSecret')) },
        '401': responseRef('Unauthorized'),
        '503': responseRef('ShuttingDown'),
      },
    },
  },
  '/api/health': {
    get: {
      operationId: 'health',
      summary: "The service's state",
      security: [],
      responses: {
        '200': { description: 'The state.', content: json(ref('Health')) },
        '503': {
          description: 'A database does not answer or is failing: the service cannot serve requests.',
          content: json(ref('HealthFailing')),
        },
      },
    },
  },
};

const webhookHeader = (name: string, description: string, schema: Json) => ({ name, in: 'header', required: true, description, schema });

/** One webhook: the POST the service sends for an event. */
function webhook(event: string, description: string): Json {
  return {
    post: {
      operationId: `on_${event.replace('.', '_')}`,
      summary: `${event} delivered`,
      description,
      parameters: [
        webhookHeader('User-Agent', 'The delivery-format version.', { type: 'string', enum: ['Svc-Webhooks/1'] }),
        webhookHeader('X-Svc-Event', 'The event name, as in the body.', { type: 'string', enum: [event] }),
        webhookHeader('X-Svc-Delivery', "This attempt's id; a retry carries a new one (deduplicate on handle and event instead).", {
          type: 'string',
          format: 'uuid',
        }),
        webhookHeader('X-Svc-Signature', 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the signing secret>.', {
          type: 'string',
          pattern: '^t=\\d+,v1=[0-9a-f]{64}$',
        }),
      ],
      requestBody: {
        required: true,
        content: json({ allOf: [ref('Event'), { properties: { event: { const: event } } }] }),
      },
      responses: {
        '2XX': { description: 'Accepted: no further attempts.' },
        default: { description: `Anything else, or no answer within 10 s: tried again (up to ${RETRY_DELAYS_MS.length} attempts in all).` },
      },
    },
  };
}

/** The document, with `site` (the site's address) as its server. */
export function publishApiDocument(site: string): Json {
  return {
    openapi: '3.1.1',
    info: {
      title: 'garment-press publish API',
      version: packageJson.version,
      description: `Publish garment research records (schema garment-access/2.4.0) to the site, follow each task by long poll or signed webhook, and manage deliveries. Prose and examples: ${API_DOCS_PATH} and ${WEBHOOK_DOCS_PATH}.`,
    },
    servers: [{ url: site.replace(/\/$/, '') }],
    security: secured,
    paths,
    webhooks: {
      [PUBLISH_EVENTS.complete]: webhook(PUBLISH_EVENTS.complete, 'A publish task completed: data.status is "complete".'),
      [PUBLISH_EVENTS.failed]: webhook(PUBLISH_EVENTS.failed, 'A publish task failed or was superseded: data.error says why.'),
      [TEST_EVENT]: webhook(TEST_EVENT, 'A test event from POST /api/webhooks/test: nothing was published.'),
    },
    components: {
      schemas,
      responses,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (gpk_…) from npm run -s admin -- org create or key create.' },
      },
    },
  };
}
