import { describe, expect, it } from 'vitest';
import { argumentProblems, toolError, toolResult } from '../../../src/lib/mcp/tool-call.ts';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['handle'],
  properties: {
    handle: { type: 'string', maxLength: 8 },
    wait_seconds: { type: 'number', minimum: 0, maximum: 50 },
    offset: { type: 'number', minimum: 0 },
    format: { type: 'string', enum: ['json', 'markdown'] },
    record: { type: ['object', 'string'] },
  },
};

describe('argumentProblems', () => {
  it('finds nothing wrong with valid arguments', () => {
    expect(argumentProblems(schema, { handle: 'abc', wait_seconds: 50, format: 'json', record: '{}' })).toEqual([]);
  });

  it('names every problem by its JSON pointer, worded for people', () => {
    expect(argumentProblems(schema, { wait_seconds: 51, format: 'html', colour: 'navy', record: 3 })).toEqual([
      { pointer: '/handle', message: 'missing required argument "handle"' },
      { pointer: '/colour', message: 'unknown argument "colour"; allowed: handle, wait_seconds, offset, format, record' },
      { pointer: '/wait_seconds', message: 'expected a number from 0 to 50; got 51' },
      { pointer: '/format', message: 'expected one of "json", "markdown"; got "html"' },
      { pointer: '/record', message: 'expected object or string; got 3' },
    ]);
  });

  it('says a value below the range and a string too long', () => {
    expect(argumentProblems(schema, { handle: 'a-very-long-handle', wait_seconds: -1, offset: -2 })).toEqual([
      { pointer: '/handle', message: 'expected at most 8 characters; got 18' },
      { pointer: '/wait_seconds', message: 'expected a number from 0 to 50; got -1' },
      { pointer: '/offset', message: 'expected a number of at least 0; got -2' },
    ]);
  });
});

describe('toolResult', () => {
  it('gives a success its structured content and the same JSON as text, or the text the tool chose', () => {
    expect(toolResult({ ok: true, result: { a: 1 } })).toEqual({
      structuredContent: { a: 1 },
      content: [{ type: 'text', text: '{\n  "a": 1\n}' }],
    });
    expect(toolResult({ ok: true, result: { a: 1 }, text: '{"a":1}' }).content).toEqual([{ type: 'text', text: '{"a":1}' }]);
  });

  it('gives an error isError and its code, message and problems as JSON text, with no structured content', () => {
    const result = toolResult(toolError('not_found', 'no such record', [{ pointer: '/slug', message: 'unknown' }]));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({
      error: { code: 'not_found', message: 'no such record', problems: [{ pointer: '/slug', message: 'unknown' }] },
    });
  });
});
