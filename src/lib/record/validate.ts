import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import schema from '../../schema/garment-access-2.4.0.schema.json' with { type: 'json' };
import { describeValue, pointerToken, type Problem } from './problem.ts';
import { isProjection } from './projections.ts';
import { SCHEMA_VERSION, type GarmentRecord, type Projection } from './types.ts';
import { counted } from '../counted.ts';
import { cachedValidator, MAX_ERRORS } from './validator-cache.ts';

/** The published JSON Schema, the one the validator compiles. */
export const recordSchema = schema;

let compiled: ValidateFunction | undefined;

/** The one compiled validator (strict mode, every error), made (or loaded from the cache) on first use. */
export function recordValidator(): ValidateFunction {
  compiled ??= cachedValidator(schema, { strict: true, allErrors: true, verbose: true });
  return compiled;
}

const DATA_KEYS: Record<Projection, string[]> = {
  svc: schema.$defs.svcData.required,
  tech: schema.$defs.techData.required,
};

/**
 * Checks one parsed value against the schema; returns every problem, worded for people.
 * A value that is not a garment-access/2.4.0 record at all gets one problem saying so.
 */
export function validateRecord(value: unknown, file: string): Problem[] {
  const problem = (pointer: string, message: string): Problem => ({ severity: 'error', file, pointer, message });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [problem('', `not a record: expected a JSON object, got ${describeValue(value)}`)];
  }
  const version = (value as { schema_version?: unknown }).schema_version;
  if (version !== SCHEMA_VERSION) {
    const got = version === undefined ? 'no schema_version' : `schema_version ${describeValue(version)}`;
    return [problem('/schema_version', `not a ${SCHEMA_VERSION} record: expected schema_version "${SCHEMA_VERSION}", got ${got}`)];
  }
  const validate = recordValidator();
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  const problems = explainErrors(errors, value as Partial<GarmentRecord>).map(([pointer, message]) => problem(pointer, message));
  if (errors.length >= MAX_ERRORS) {
    problems.push(problem('', `and more problems not listed: the check keeps at most ${MAX_ERRORS} errors; correct these and check again`));
  }
  return problems;
}

/** The data keys of each projection, as the rules of its data object list them. */
const DATA_KEY_LISTS = new Set([JSON.stringify(schema.$defs.svcData.required), JSON.stringify(schema.$defs.techData.required)]);

/**
 * Whether an error is a rule of a projection's data object itself (its keys), not of a value in it.
 * Told by the keys the rule's schema lists, not by the schema object: a cached validator holds its own copy.
 */
function isDataKeyRule(error: ErrorObject): boolean {
  return (
    error.instancePath === '/data' &&
    DATA_KEY_LISTS.has(JSON.stringify((error.parentSchema as { required?: unknown } | undefined)?.required))
  );
}

/** Turns ajv's raw errors into one [pointer, message] per real problem. */
function explainErrors(errors: ErrorObject[], record: Partial<GarmentRecord>): [string, string][] {
  const projection = record.projection;
  const dataKeyErrors = errors.filter(isDataKeyRule);
  const valueRuleAt = new Set(errors.filter((e) => e.keyword === 'enum' || e.keyword === 'const').map((e) => e.instancePath));
  const nullAllowedAt = new Set(errors.filter(isNullAlternative).map((e) => e.instancePath));
  const relevant = errors.filter(
    (e) =>
      !dataKeyErrors.includes(e) &&
      e.keyword !== 'if' &&
      // `anyOf [X, null]`: when the value is not null, only X's complaints matter.
      !isNullAlternative(e) &&
      !(e.keyword === 'anyOf' && errors.some((other) => other !== e && other.instancePath.startsWith(e.instancePath))) &&
      // An enumeration's message already lists the allowed values, types included.
      !(e.keyword === 'type' && valueRuleAt.has(e.instancePath)),
  );
  const explained: [string, string][] = relevant.map((e) => [
    pointerOf(e),
    explainError(e, nullAllowedAt.has(e.instancePath) || typeListsNull(e), projection),
  ]);
  // When data is not an object at all, its type error says everything.
  if (dataKeyErrors.length > 0 && isObject(record.data) && isProjection(projection)) {
    const dataKeys = Object.keys(record.data).filter((key) => Object.hasOwn(schema.$defs.data.properties, key));
    const mismatch = explainDataKeys(projection, dataKeys);
    if (mismatch) explained.unshift(['/data', mismatch]);
  }
  return dedupe(explained);
}

/** Where the problem is; for an unknown or a missing property, that property's own place in its object. */
function pointerOf(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return `${error.instancePath}/${pointerToken(error.params.additionalProperty)}`;
  if (error.keyword === 'required') return `${error.instancePath}/${pointerToken(error.params.missingProperty)}`;
  return error.instancePath;
}

/** A complaint that a value is not null, from the null alternative of `anyOf [X, null]`. */
function isNullAlternative(error: ErrorObject): boolean {
  return error.keyword === 'type' && /\/anyOf\/\d+\/type$/.test(error.schemaPath) && error.params.type === 'null';
}

/** Whether the rule's own schema also allows null, as `"type": ["string", "null"]` does. */
function typeListsNull(error: ErrorObject): boolean {
  const type = (error.parentSchema as { type?: unknown } | undefined)?.type;
  return Array.isArray(type) && type.includes('null');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function explainError(error: ErrorObject, nullAllowed: boolean, projection: unknown): string {
  const got = describeValue(error.data);
  const { params } = error;
  switch (error.keyword) {
    case 'required':
      return `missing required property "${params.missingProperty}"`;
    case 'additionalProperties': {
      // The data object's keys are those of the record's projection, not every collection there is.
      const allowed =
        error.instancePath === '/data' && isProjection(projection)
          ? DATA_KEYS[projection]
          : Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
      return `unknown property "${params.additionalProperty}"; allowed: ${allowed.join(', ')}`;
    }
    case 'enum':
      return `expected one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}; got ${got}`;
    case 'const':
      return `expected ${JSON.stringify(params.allowedValue)}; got ${got}`;
    case 'pattern':
      return `must match ${params.pattern}; got ${got}`;
    case 'minLength':
      return `expected a non-empty string${nullAllowed ? ' or null' : ''}; got ""`;
    case 'minItems':
      return `expected at least ${counted(params.limit, 'item')}; got an empty array`;
    case 'maxProperties':
      return `expected at most ${params.limit} properties; got ${Object.keys(error.data as object).length}`;
    case 'type': {
      const types = String(params.type).split(',');
      if (nullAllowed && !types.includes('null')) types.push('null');
      return `expected ${types.join(' or ')}; got ${got}`;
    }
    default:
      return `${error.message ?? 'is invalid'}; got ${got}`;
  }
}

/** Says which known data keys a record lacks or has too many of for its projection, or '' when none. */
function explainDataKeys(projection: Projection, keys: string[]): string {
  const expected = DATA_KEYS[projection];
  const missing = expected.filter((k) => !keys.includes(k));
  const extra = keys.filter((k) => !expected.includes(k));
  const parts = [
    missing.length > 0 ? `missing ${missing.join(', ')}` : '',
    extra.length > 0 ? `not allowed ${extra.join(', ')}` : '',
  ].filter(Boolean);
  if (parts.length === 0) return '';
  return `data keys do not match projection "${projection}" (${expected.length} keys): ${parts.join('; ')}`;
}

function dedupe(pairs: [string, string][]): [string, string][] {
  const seen = new Set<string>();
  return pairs.filter(([pointer, message]) => {
    const key = `${pointer}\n${message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
