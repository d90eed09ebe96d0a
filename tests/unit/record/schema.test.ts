import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { recordSchema } from '../../../src/lib/record/index.ts';
import { projectRoot } from '../../support/records.ts';

describe('the garment-access/2.4.0 schema', () => {
  it('is draft 2020-12 with an identifier ending in garment-access:2.4.0', () => {
    expect(recordSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(recordSchema.$id).toMatch(/garment-access:2\.4\.0$/);
  });

  it('compiles under ajv strict mode without a single warning', () => {
    const warnings: unknown[] = [];
    const logger = { log: () => {}, warn: (...args: unknown[]) => warnings.push(args), error: (...args: unknown[]) => warnings.push(args) };
    new Ajv2020({ strict: true, allErrors: true, logger }).compile(recordSchema);
    expect(warnings).toEqual([]);
  });

  it('knows exactly the 25 data collections, 21 for commerce and 15 for technical records', () => {
    const { data, svcData, techData } = recordSchema.$defs;
    expect(Object.keys(data.properties)).toHaveLength(25);
    expect(svcData.required).toHaveLength(21);
    expect(svcData.maxProperties).toBe(21);
    expect(techData.required).toHaveLength(15);
    expect(techData.maxProperties).toBe(15);
    expect(new Set([...svcData.required, ...techData.required])).toEqual(new Set(Object.keys(data.properties)));
  });

  it('requires every listed property and forbids extra ones in every object', () => {
    const objects: Record<string, unknown>[] = [];
    const walk = (node: unknown) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if (schema.properties && schema.type === 'object') objects.push(schema);
      Object.values(schema).forEach(walk);
    };
    walk(recordSchema);
    expect(objects.length).toBeGreaterThan(40);
    for (const object of objects) {
      if (object === recordSchema.$defs.data) continue; // the 25-name union; the projection picks the required set
      expect(object.additionalProperties).toBe(false);
      expect(new Set(object.required as string[])).toEqual(new Set(Object.keys(object.properties as object)));
    }
  });

  it('matches the TypeScript types generated from it', () => {
    const generated = execFileSync(
      path.join(projectRoot, 'node_modules/.bin/json2ts'),
      ['-i', 'src/schema/garment-access-2.4.0.schema.json', '--unknownAny', '--unreachableDefinitions'],
      { cwd: projectRoot, encoding: 'utf8' },
    );
    const committed = readFileSync(path.join(projectRoot, 'src/lib/record/schema-types.ts'), 'utf8');
    expect(committed.trim(), 'run npm run generate:types').toBe(generated.trim());
  });
});
