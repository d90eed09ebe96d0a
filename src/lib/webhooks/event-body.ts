import { GarmentPressError } from '../errors.ts';

/** Thrown when an event handed to the outbox is not a valid event. */
export class InvalidEventError extends GarmentPressError {}

/** A completion event as the publish service hands it over for delivery. */
export interface CompletionEvent {
  /** `<category>.completed` or `<category>.failed`. */
  event: string;
  /** The handle the tool call returned. */
  handle: string;
  /** Exact name of the tool that was invoked. */
  tool: string;
  /** The organization that owns the task. */
  organizationId: string;
  /** The get_generation projection as stored JSON text; it goes into the body byte for byte. */
  dataJson: string;
}

const EVENT_NAME = /^[a-z][a-z0-9_]*\.(completed|failed)$/;

/** Throws InvalidEventError unless the event has a spec event name, non-empty fields and a JSON object as data. */
export function assertCompletionEvent(event: CompletionEvent): void {
  if (!EVENT_NAME.test(event.event)) {
    throw new InvalidEventError(`event: expected <category>.completed or <category>.failed, got ${JSON.stringify(event.event)}`);
  }
  for (const field of ['handle', 'tool', 'organizationId'] as const) {
    if (typeof event[field] !== 'string' || event[field] === '') throw new InvalidEventError(`${field}: expected a non-empty string`);
  }
  if (!isJsonObject(event.dataJson)) throw new InvalidEventError('dataJson: expected the JSON text of an object');
}

/**
 * Returns the spec 2.2 body; `dataJson` is spliced in unchanged so `data` matches get_generation byte for byte.
 * @example buildEventBody(event, new Date(0)) → '{"event":"publish.completed",…,"delivered_at":"1970-01-01T00:00:00.000Z","data":{…}}'
 */
export function buildEventBody(event: CompletionEvent, deliveredAt: Date): string {
  const fields = [
    ['event', event.event],
    ['handle', event.handle],
    ['tool', event.tool],
    ['organization_id', event.organizationId],
    ['delivered_at', deliveredAt.toISOString()],
  ];
  const head = fields.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',');
  return `{${head},"data":${event.dataJson}}`;
}

function isJsonObject(text: string): boolean {
  try {
    return isRecord(JSON.parse(text));
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
