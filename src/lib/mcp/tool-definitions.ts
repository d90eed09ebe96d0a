// What tools/list shows of each tool: names, descriptions an agent can act on, and JSON Schemas for
// arguments and results. Apart from the tools' work, so the documentation page shows them as served.
import schema from '../../schema/garment-access-2.4.0.schema.json' with { type: 'json' };
import { CALLBACK_URL_WARNING, IDEMPOTENCY_WINDOW_MS, LONG_POLL_CAP_SECONDS, PUBLISH_EVENTS, PUBLISH_TOOL } from '../publish/index.ts';
import { SEARCH_FILTERS } from '../search/query/search-keys.ts';
import { SORT_ORDERS } from '../search/query/search-state.ts';
import { formatDuration } from '../site/format.ts';
import type { JsonSchema, ToolDefinition } from './tool-call.ts';
import { PROJECTIONS } from '../record/projections.ts';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '../record/slug.ts';

const SEARCH_LIMIT_MAX = 50;
const LIST_LIMIT_MAX = 200;
const RESEARCH_STATUSES = schema.$defs.research.properties.status.enum;

export const projectionArgument = {
  type: 'string',
  enum: PROJECTIONS,
  description: 'The projection: "svc" (commerce: prices, sizes, colours, stock) or "tech" (technical: fabric, construction, measurements).',
};
export const slugArgument = {
  type: 'string',
  pattern: SLUG_PATTERN,
  maxLength: SLUG_MAX_LENGTH,
  description: 'The garment\'s slug, as search hits and list entries give it, e.g. "ridgeline-rk6210-heavyweight-tee".',
};
export const textField = (description: string) => ({ type: 'string', description });
const countField = (description: string) => ({ type: 'integer', minimum: 0, description });

const searchGarmentSchema: JsonSchema = {
  type: 'object',
  required: ['slug', 'title', 'url', 'image', 'projections', 'key_facts', 'excerpt'],
  properties: {
    slug: textField("The garment's slug: pass it with a projection's code to garments.get_record."),
    title: textField("The garment's title."),
    url: textField("The garment's page, which leads to each of its records."),
    image: {
      type: ['object', 'null'],
      required: ['url', 'alt'],
      properties: { url: textField('An http(s) image of the garment.'), alt: textField('Its text alternative, possibly "".') },
      description: "The garment's image, or null.",
    },
    projections: {
      type: 'array',
      description: "The garment's records, commerce first: each projection's code, name, page and research status.",
      items: {
        type: 'object',
        required: ['code', 'name', 'url', 'status'],
        properties: {
          code: { type: 'string', enum: PROJECTIONS, description: "The projection's code, for garments.get_record." },
          name: textField("The projection's name: Commerce or Technical."),
          url: textField("The record's page."),
          status: textField('The record\'s research status, as the page words it ("Complete").'),
        },
      },
    },
    key_facts: {
      type: 'array',
      items: { type: 'string' },
      description:
        'The facts the search page shows, as it words them: the price from and sizes (commerce), the fabric and weight (technical); only those the records state. A fact in doubt says so after it: "(sources disagree: 9 or 8.5 oz/yd²)", "(not verified)".',
    },
    excerpt: textField("Words of the garment's text around the match, as plain text."),
  },
};

/** garments.search */
export const SEARCH: ToolDefinition = {
  name: 'garments.search',
  title: 'Search garments',
  description: [
    "Searches the published garments as the site's search page does (the same index and code: the same garments in the same order): full text over titles, names, fabrics, prices and every text block, narrowed by filters.",
    'One result per garment, with its title, its records (projection code, name, page, research status), its key facts and an excerpt.',
    'A word finds only garments that say it (or a word of its stem, or a longer word it begins); a word no garment says but one letter from a word garments say is searched as that word (corrected is true, searched gives the words searched);',
    'a word that is neither is left out when other words are left (dropped names it, searched gives the words searched, note says so as the search page does: "No garment says “xqxq”; showing garments for “fleece”.");',
    'a search of such words alone finds nothing and gives suggestions: the same words with the unknown one replaced by near words that garments say.',
    'Give words, filters, or both (an empty query with filters lists every garment they allow). Values of one filter are alternatives (colour Navy or Black); filters narrow one another.',
    'Filter values are the words the site shows (projection "Commerce" or "Technical", status "Complete"); filter_counts in the result lists the values there are and how many garments each would leave.',
    "Read a garment's record in full with garments.get_record (slug, a projection's code).",
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['query'],
    properties: {
      query: { type: 'string', maxLength: 500, description: 'Words to search for; "" for none (then give filters).' },
      filters: {
        type: 'object',
        additionalProperties: false,
        description: 'Per filter, the values a garment must carry one of.',
        properties: Object.fromEntries(
          SEARCH_FILTERS.map((filter) => [filter, { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 200 } }]),
        ),
      },
      sort: {
        type: 'string',
        enum: ['relevance', ...Object.keys(SORT_ORDERS)],
        default: 'relevance',
        description:
          'Best match first (relevance), by title A to Z, newest published first, by price from, lowest first (price: the lowest price a commerce record states), or by weight, lightest first (weight: the fabric weight in g/m² a technical record states); garments without a price or weight come after those with one. The search page sorts the same way.',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: SEARCH_LIMIT_MAX,
        default: 10,
        description: 'Most garments returned; total counts them all.',
      },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['query', 'searched', 'corrected', 'dropped', 'note', 'suggestions', 'total', 'garments', 'filter_counts', 'search_url'],
    properties: {
      query: textField('The words asked for.'),
      searched: textField(
        'The words searched for: those asked, a misspelled one replaced by the word it was taken for, one no garment says left out.',
      ),
      corrected: { type: 'boolean', description: 'Whether searched replaced or left out a word asked for.' },
      dropped: {
        type: 'array',
        items: { type: 'string' },
        description:
          'Words asked that no garment says nor is one letter from, left out of the search (as the index spells them). Otherwise [].',
      },
      note: textField(
        'What the search page says above the garments when the search is not what was asked: a word left out ("No garment says “xqxq”; showing garments for “fleece”.") or replaced ("No garment says “hodie”; showing “hoodie” instead."); otherwise "".',
      ),
      suggestions: {
        type: 'array',
        items: { type: 'string' },
        description:
          'When a word is neither said by any garment nor one letter from a word that is: queries that would find garments. Otherwise [].',
      },
      total: countField('How many garments match, of which garments holds the first.'),
      garments: { type: 'array', items: searchGarmentSchema },
      filter_counts: {
        type: 'object',
        description: 'Per filter and value, how many garments there would be with that value selected too.',
        additionalProperties: { type: 'object', additionalProperties: { type: 'integer' } },
      },
      search_url: textField("The same search on the site's search page, for a person."),
    },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  access: 'anyone',
};

/** garments.get_record */
export const GET_RECORD: ToolDefinition = {
  name: 'garments.get_record',
  title: 'Read a garment record',
  description: [
    'Returns a published garment research record: format "json" is the record exactly as published (schema garment-access/2.4.0, with its links),',
    '"markdown" its Markdown twin (every section, claims as footnotes, data as tables), easier to read and quote.',
    'The text is in result.text and in the content. Find slugs with garments.search or garments.list.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['slug', 'projection'],
    properties: {
      slug: slugArgument,
      projection: projectionArgument,
      format: {
        type: 'string',
        enum: ['json', 'markdown'],
        default: 'json',
        description: "The record's JSON (default) or its Markdown twin.",
      },
      revision: {
        type: 'integer',
        minimum: 1,
        description:
          'An earlier revision, by its number (garments.list_revisions lists them): its JSON exactly as published then. The latest without it.',
      },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['slug', 'projection', 'format', 'url', 'page_url', 'mime_type', 'text'],
    properties: {
      slug: textField("The garment's slug."),
      projection: { type: 'string', enum: PROJECTIONS },
      format: { type: 'string', enum: ['json', 'markdown'] },
      url: textField("The twin's address on the site, also its MCP resource URI."),
      page_url: textField("The record's page on the site."),
      mime_type: { type: 'string', enum: ['application/json', 'text/markdown'] },
      text: textField("The twin's content."),
    },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  access: 'anyone',
};

const listEntrySchema: JsonSchema = {
  type: 'object',
  required: ['slug', 'projection', 'title', 'category', 'brand', 'record_revision', 'published_at', 'research_status', 'links'],
  properties: {
    slug: { type: 'string' },
    projection: { type: 'string', enum: PROJECTIONS },
    title: { type: 'string' },
    category: { type: 'string' },
    brand: { type: 'string' },
    record_revision: { type: 'string' },
    published_at: { type: 'string' },
    research_status: { type: 'string' },
    links: {
      type: 'object',
      additionalProperties: { type: ['string', 'null'] },
      description: "The record's links: self (its JSON), markdown, page, other_projection and the docs.",
    },
  },
};

/** garments.list */
export const LIST: ToolDefinition = {
  name: 'garments.list',
  title: 'List garment records',
  description: [
    'Lists the published garment research records as /records.json has them (by title), a page at a time, for browsing without a query:',
    'slug, projection, title, category, brand, revision, publication date, research status and links.',
    'Narrow by category, brand (either ignoring case), projection or research status; pass next_cursor back as cursor for the next page (null on the last).',
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      category: { type: 'string', maxLength: 200, description: 'Only records of this category, e.g. "tops".' },
      brand: { type: 'string', maxLength: 200, description: 'Only records of this brand, e.g. "Ridgeline".' },
      projection: projectionArgument,
      status: { type: 'string', enum: RESEARCH_STATUSES, description: 'Only records of this research status.' },
      cursor: { type: 'string', maxLength: 200, description: 'next_cursor of the previous page.' },
      limit: { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, default: 50, description: 'Records per page.' },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['total', 'records', 'next_cursor'],
    properties: {
      total: countField('How many records match, on every page.'),
      records: { type: 'array', items: listEntrySchema },
      next_cursor: { type: ['string', 'null'], description: 'Pass as cursor for the next page; null on the last page.' },
    },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  access: 'anyone',
};

/** The name of the polling tool (spec 4.2: `<domain>.get_generation`). */
export const GET_GENERATION_TOOL = 'garments.get_generation';

const handleText = { type: 'string', description: 'The handle garments.publish returned (a UUID).' };

/** What garments.get_generation answers: the task's projection, also the completion event's data. */
const generationSchema: JsonSchema = {
  type: 'object',
  required: ['handle', 'resource_id', 'status', 'done', 'progress', 'stage', 'page_url', 'error', 'problems', 'superseded_by'],
  properties: {
    handle: handleText,
    resource_id: { type: 'string', description: '<slug>/<projection> once the record is known to be valid, else "".' },
    status: {
      type: 'string',
      description:
        "queued, running, complete, failed or superseded (a later publish of the same garment went into the same build: its content is live, this task's never was).",
    },
    done: { type: 'boolean', description: 'True at complete, failed and superseded.' },
    progress: { type: 'number', description: 'From 0 to 1.' },
    stage: { type: 'string', description: 'What the task is doing.' },
    page_url: { type: 'string', description: 'The record\'s page once complete, else "".' },
    error: { type: 'string', description: 'Why the task failed or was superseded, else "".' },
    problems: {
      type: 'array',
      description: 'Every problem of a record that does not validate (pointer into the record, message); [] otherwise.',
      items: {
        type: 'object',
        required: ['pointer', 'message'],
        properties: { pointer: { type: 'string' }, message: { type: 'string' } },
      },
    },
    superseded_by: { type: ['string', 'null'], description: 'For a superseded task, the handle whose publish went live; else null.' },
  },
};

// No maximum: a longer wait is capped (spec section 1), as the HTTP API's ?wait is, not refused.
const waitSecondsArgument = {
  type: 'number',
  minimum: 0,
  default: 0,
  description: `Seconds to wait for the task to end; a wait over ${LONG_POLL_CAP_SECONDS} is capped at ${LONG_POLL_CAP_SECONDS}.`,
};

/** garments.publish */
export const PUBLISH: ToolDefinition = {
  name: PUBLISH_TOOL,
  title: 'Publish a garment record',
  description: [
    'Publishes a garment research record (schema garment-access/2.4.0) to the site: it is checked at once (an invalid record is an error listing every problem with its JSON pointer, and nothing is published),',
    "then a task writes it and rebuilds the site, and the call returns at once with the task's handle.",
    `Follow the task with ${GET_GENERATION_TOOL} (it can wait up to ${LONG_POLL_CAP_SECONDS} s for the end), or pass wait_seconds to wait here (with progress notifications for a call sent with a progressToken), or pass callback_url: an https address that gets one signed POST`,
    `(event ${PUBLISH_EVENTS.complete} or ${PUBLISH_EVENTS.failed}, tool "${PUBLISH_TOOL}") whose data is exactly what ${GET_GENERATION_TOOL} returns.`,
    'A record sent as JSON text is published byte for byte (only its links are filled in); sent as an object, it is written as indented JSON.',
    `To retry safely after a lost answer, send the same idempotency_key: within ${formatDuration(IDEMPOTENCY_WINDOW_MS)} the same call returns the first call's handle (replayed: true) instead of publishing twice.`,
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['record'],
    properties: {
      record: { type: ['object', 'string'], description: 'The record: a JSON object, or its JSON text.' },
      callback_url: { type: 'string', description: 'Optional: a public https address to POST the signed completion event to.' },
      idempotency_key: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        pattern: '^[\\x21-\\x7E]+$',
        description: "Optional: 1 to 255 visible ASCII characters (a UUID is a good choice), as the HTTP API's Idempotency-Key.",
      },
      wait_seconds: {
        ...waitSecondsArgument,
        description: `Optional: seconds to wait for the task to end (capped at ${LONG_POLL_CAP_SECONDS}), as ${GET_GENERATION_TOOL} would; the answer then carries generation.`,
      },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['handle', 'status_url', 'replayed'],
    properties: {
      handle: { type: 'string', description: `The task's handle: pass it to ${GET_GENERATION_TOOL}.` },
      status_url: { type: 'string', description: 'Where the same task is polled over the HTTP API.' },
      replayed: { type: 'boolean', description: 'True when an earlier call with the same idempotency_key made this task.' },
      callback_url_warning: { type: 'string', description: CALLBACK_URL_WARNING },
      generation: {
        ...generationSchema,
        description: `With wait_seconds: where the task stood at the end of the wait, as ${GET_GENERATION_TOOL} answers.`,
      },
    },
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  access: 'key',
};

/** garments.get_generation */
export const GET_GENERATION: ToolDefinition = {
  name: GET_GENERATION_TOOL,
  title: 'Follow a publish task',
  description: [
    `Returns where a task garments.publish started stands: status (queued, running, complete, failed, superseded), done, progress, stage, and at the end page_url or error (with problems, for a record that does not validate, and superseded_by, when a later publish of the same garment went live in its place).`,
    `With wait_seconds (capped at ${LONG_POLL_CAP_SECONDS}) it answers as soon as the task ends, or when the wait is over: call again until done is true.`,
    'While it waits, a call sent with a progressToken gets notifications/progress: the stage the task is at, then each change (progress 0 to 1, message "<status>: <stage>"), the last one at the end.',
    'The JSON text is byte for byte the data field of the completion event and what GET /api/generations/<handle> answers.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['handle'],
    properties: {
      handle: { ...handleText, maxLength: 64 },
      wait_seconds: waitSecondsArgument,
    },
  },
  outputSchema: generationSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  access: 'key',
};

/** What tools/list shows of the read-only tools. */
export const READ_TOOL_DEFINITIONS: ToolDefinition[] = [SEARCH, GET_RECORD, LIST];

/** What tools/list shows of the tools that need an API key. */
export const PUBLISH_TOOL_DEFINITIONS: ToolDefinition[] = [PUBLISH, GET_GENERATION];
