import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { cachedValidator, MAX_ERRORS } from '../../../src/lib/record/validator-cache.ts';

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
    // Both run the kept code, not ajv's own compilation, which hangs what it compiled on the function.
    expect('schemaEnv' in compiled).toBe(false);
    expect('schemaEnv' in loaded).toBe(false);
    const expected = verdicts(new Ajv2020(options).compile(schema));
    expect(verdicts(compiled)).toEqual(expected);
    expect(verdicts(loaded)).toEqual(expected);
  });

  it('keeps at most MAX_ERRORS errors, found in time in proportion to the value', () => {
    // Items ajv calls a function of their own for (their schema has a $ref), and items it checks in place.
    const many = {
      type: 'object',
      properties: {
        called: { type: 'array', items: { $ref: '#/$defs/item' } },
        inPlace: { type: 'array', items: { type: 'string' } },
      },
      $defs: {
        item: { type: 'object', required: ['a', 'b'], properties: { a: { $ref: '#/$defs/name' }, b: { type: 'number' } } },
        name: { type: 'string' },
      },
    };
    const validate = cachedValidator(many, options, mkdtempSync(path.join(tmpdir(), 'validators-')));
    const items = Array.from({ length: 3 * MAX_ERRORS }, () => ({}));
    for (const value of [{ called: items }, { inPlace: Array.from({ length: 3 * MAX_ERRORS }, () => 1) }]) {
      const started = performance.now();
      expect(validate(value)).toBe(false);
      expect(validate.errors).toHaveLength(MAX_ERRORS);
      expect(performance.now() - started).toBeLessThan(5_000);
    }
    expect(validate.errors![0]).toMatchObject({ instancePath: '/inPlace/0', keyword: 'type' });
    // Under the limit, every error, as ajv gives them.
    const few = { called: [{}, { a: 1, b: 2 }], inPlace: [1] };
    const withoutSchemas = (errors: ErrorObject[] | null | undefined) =>
      (errors ?? []).map(({ schema: _, parentSchema: __, ...error }) => error);
    validate(few);
    const ajv = new Ajv2020(options).compile(many);
    ajv(few);
    expect(withoutSchemas(validate.errors)).toEqual(withoutSchemas(ajv.errors));
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

  it("keeps its code in the install's cache wherever the module is bundled: Astro's copy lives in a folder each build removes", async () => {
    const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));
    // As Astro bundles it: a copy three folders down in a folder of the build's own under the project.
    const build = mkdtempSync(path.join(projectRoot, '.astro', 'bundle-'));
    try {
      const chunks = path.join(build, '.astro', '.prerender', 'chunks');
      mkdirSync(chunks, { recursive: true });
      copyFileSync(
        fileURLToPath(new URL('../../../src/lib/record/validator-cache.ts', import.meta.url)),
        path.join(chunks, 'validator-cache.ts'),
      );
      const bundled = (await import(pathToFileURL(path.join(chunks, 'validator-cache.ts')).href)) as {
        cachedValidator: typeof cachedValidator;
      };
      expect(verdicts(bundled.cachedValidator(schema, options))).toEqual(verdicts(new Ajv2020(options).compile(schema)));
      expect(readdirSync(build, { recursive: true }).filter((file) => String(file).endsWith('.cjs'))).toEqual([]);
      expect(verdicts(cachedValidator(schema, options))).toEqual(verdicts(new Ajv2020(options).compile(schema)));
      expect(cacheFiles(path.join(projectRoot, 'node_modules', '.cache', 'garment-press')).length).toBeGreaterThan(0);
    } finally {
      rmSync(build, { recursive: true, force: true });
    }
  });
});
