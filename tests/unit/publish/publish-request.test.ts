import { describe, expect, it } from 'vitest';
import { readPublishRequest } from '../../../src/lib/publish/publish-request.ts';

const read = (body: string, query: string | null = null) => readPublishRequest(Buffer.from(body, 'utf8'), query);

describe('readPublishRequest (issue 25: the record as sent)', () => {
  it("takes the exact text of an envelope's record value, number forms, escapes and spacing included", () => {
    const record = '{ "schema_version": "x",\n  "weight": 6.50, "name": "caf\\u00e9", "z": [1, {"a": "}"}] }';
    expect(read(`{"callback_url": "https://hooks.example.com/x", "record":   ${record}\n}`)).toEqual({
      ok: true,
      recordText: record,
      callbackUrl: 'https://hooks.example.com/x',
    });
  });

  it('takes the whole body as the record when it has schema_version, with callback_url from the query', () => {
    const body = '\uFEFF{"schema_version": "x", "price": 1.10}\n';
    expect(read(body, 'https://hooks.example.com/x')).toEqual({
      ok: true,
      recordText: body.slice(1),
      callbackUrl: 'https://hooks.example.com/x',
    });
  });

  it('takes a record sent as a string as that text', () => {
    const record = '{"schema_version": "x", "price": 1.10}\n';
    expect(read(JSON.stringify({ record }))).toEqual({ ok: true, recordText: record, callbackUrl: null });
  });

  it('refuses a record string that is not a JSON object, or a record of another type', () => {
    expect(read('{"record": "[1]"}')).toEqual({
      ok: false,
      code: 'invalid_request',
      message: '"record" as text must hold a JSON object, got an array',
    });
    expect(read('{"record": true}')).toEqual({
      ok: false,
      code: 'invalid_request',
      message: '"record" must be a JSON object or its text, got a boolean',
    });
  });
});
