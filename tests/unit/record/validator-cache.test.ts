import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
