import { describe, expect, it } from 'vitest';
import { assertCompletionEvent, buildEventBody } from '../../../src/lib/webhooks/event-body.ts';

const DATA_JSON =
  '{ "handle": "7c9e6679-7425-40de-944b-e07fc1f90ae7",\n  "status": "complete", "progress": 1.0, "stage": "Fertig ✓", "error": "" }';
const EVENT = {
  event: 'design.completed',
  handle: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  tool: 'design.generate',
  organizationId: 'org_42',
  dataJson: DATA_JSON,
};

describe('buildEventBody', () => {
  it('writes the spec fields in snake_case with delivered_at in UTC milliseconds', () => {
    const body = buildEventBody(EVENT, new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)));
    expect(body).toBe(
      '{"event":"design.completed","handle":"7c9e6679-7425-40de-944b-e07fc1f90ae7","tool":"design.generate",' +
        `"organization_id":"org_42","delivered_at":"2026-01-02T03:04:05.006Z","data":${DATA_JSON}}`,
    );
  });

  it('embeds the stored projection byte for byte, whitespace and number spelling included', () => {
    const body = buildEventBody(EVENT, new Date(0));
    expect(body.endsWith(`"data":${DATA_JSON}}`)).toBe(true);
    expect(JSON.parse(body).data).toEqual(JSON.parse(DATA_JSON));
  });

  it('escapes string fields as JSON', () => {
    const body = buildEventBody({ ...EVENT, tool: 'say "hi"\n' }, new Date(0));
    expect(JSON.parse(body).tool).toBe('say "hi"\n');
  });
});

describe('assertCompletionEvent', () => {
  it('accepts completed and failed events of any category', () => {
    expect(() => assertCompletionEvent(EVENT)).not.toThrow();
    expect(() => assertCompletionEvent({ ...EVENT, event: 'product_video.failed' })).not.toThrow();
  });

  it.each([
    [{ event: 'design.started' }, 'event: expected <category>.completed or <category>.failed, got "design.started"'],
    [{ handle: '' }, 'handle: expected a non-empty string'],
    [{ dataJson: '[1,2]' }, 'dataJson: expected the JSON text of an object'],
    [{ dataJson: '{"a":' }, 'dataJson: expected the JSON text of an object'],
  ])('refuses %o', (change, message) => {
    expect(() => assertCompletionEvent({ ...EVENT, ...change })).toThrow(message);
  });
});
