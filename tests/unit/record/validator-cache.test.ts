import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { cachedValidator } from '../../../src/lib/record/validator-cache.ts';

// minLength needs one of ajv's runtime helpers, which the cached code must find from any folder.
const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1 }, size: { enum: ['S', 'M'] } },
};
const options = { strict: true, allErrors: true, verbose: true };
const values = [{ name: 'Tee' }, { name: '' }, { size: 'XL', extra: 1 }, 'not an object'];

/** What a validator says of each value, without the schema objects its errors point to. */
function verdicts(validate: ReturnType<typeof cachedValidator>) {
  return values.map((value) => [
    validate(value),
    (validate.errors ?? []).map(({ schema: _, parentSchema: __, ...error }: ErrorObject) => error),
  ]);
}

const cacheFiles = (dir: string) => readdirSync(dir).filter((file) => file.endsWith('.cjs'));

describe('cachedValidator', () => {
  it('compiles once, keeps the code, and the kept code judges as ajv does', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'validators-'));
    const compiled = cachedValidator(schema, options, dir);
    expect(cacheFiles(dir)).toHaveLength(1);
    const loaded = cachedValidator(schema, options, dir);
    // ajv hangs its compilation on what it compiles; code loaded from the cache has none.
    expect('schemaEnv' in compiled).toBe(true);
    expect('schemaEnv' in loaded).toBe(false);
    const expected = verdicts(new Ajv2020(options).compile(schema));
    expect(verdicts(compiled)).toEqual(expected);
    expect(verdicts(loaded)).toEqual(expected);
  });

  it('loads the kept code rather than compiling again', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'validators-'));
    cachedValidator(schema, options, dir);
    writeFileSync(path.join(dir, cacheFiles(dir)[0]!), 'module.exports = () => "kept";');
    expect(cachedValidator(schema, options, dir)({})).toBe('kept');
  });

  it('keeps one file per schema and options', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'validators-'));
    cachedValidator(schema, options, dir);
    cachedValidator({ ...schema, required: [] }, options, dir);
    cachedValidator(schema, { ...options, allErrors: false }, dir);
    expect(cacheFiles(dir)).toHaveLength(3);
  });

  it('compiles again over a damaged file, and validates where nothing can be written', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'validators-'));
    cachedValidator(schema, options, dir);
    writeFileSync(path.join(dir, cacheFiles(dir)[0]!), 'module.exports = (');
    expect(verdicts(cachedValidator(schema, options, dir))).toEqual(verdicts(new Ajv2020(options).compile(schema)));

    const blocked = path.join(mkdtempSync(path.join(tmpdir(), 'validators-')), 'a-file');
    writeFileSync(blocked, 'not a folder');
    expect(verdicts(cachedValidator(schema, options, path.join(blocked, 'cache')))).toEqual(verdicts(new Ajv2020(options).compile(schema)));
  });
});
