import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import Ajv2020, { type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';

const require = createRequire(import.meta.url);
const AJV_VERSION = (require('ajv/package.json') as { version: string }).version;

/** ajv's code requires its runtime helpers by package name; by path, it loads from any folder. */
const AJV_RUNTIME = /require\("(ajv\/dist\/runtime\/[\w/]+)"\)/g;

/** The most errors a validator keeps at each level of the schema it follows; the value is invalid by then. */
export const MAX_ERRORS = 10_000;

/**
 * ajv's code adds each error to its list, and the errors of each schema it calls with `concat`,
 * copying every error found so far: a 3 MB record of a million empty items ran for hours, and a
 * million errors would fill memory. Appended in place, and no more past MAX_ERRORS, the work stays
 * in proportion to the record. The count of errors stays the list's length, as ajv keeps it.
 */
const ERROR_APPENDS: [RegExp, string][] = [
  [/vErrors = vErrors === null \? (validate\d+\.errors) : vErrors\.concat\(\1\)/g, 'vErrors = appendErrors(vErrors, $1)'],
  [/else \{vErrors\.push\((err\d+)\);\}errors\+\+;/g, `else if(vErrors.length < ${MAX_ERRORS}){vErrors.push($1);}errors = vErrors.length;`],
];
const APPEND_ERRORS = `function appendErrors(errors, more) {
  if (errors === null) return more;
  for (let i = 0; i < more.length && errors.length < ${MAX_ERRORS}; i++) errors.push(more[i]);
  return errors;
}
`;

/**
 * Where compiled validators are kept: `.cache` in the node_modules that holds ajv, so a fresh install
 * starts without them. Found from ajv, not from this module's place: Astro bundles this module into a
 * folder of each build's own (removed after it), where a cache would be lost and ajv compile every build.
 */
const VALIDATOR_CACHE = path.join(path.dirname(path.dirname(require.resolve('ajv/package.json'))), '.cache', 'garment-press');

/**
 * The ajv validator of a schema, compiled once per install: ajv's code for it is kept in `cacheDir`
 * (named by the schema, the options and ajv's version), which a process loads in milliseconds
 * where compiling takes 0.4–0.5 s, in every thread that validates. Where the cache cannot be
 * written, each process compiles, as without it.
 */
export function cachedValidator(schema: object, options: Options, cacheDir = VALIDATOR_CACHE): ValidateFunction {
  const key = createHash('sha256')
    .update(JSON.stringify([AJV_VERSION, ERROR_APPENDS.map(String), APPEND_ERRORS, options, schema]))
    .digest('hex')
    .slice(0, 16);
  const file = path.join(cacheDir, `validator-${key}.cjs`);
  try {
    return require(file) as ValidateFunction;
  } catch {
    // Not cached yet (or unreadable): compiled, and cached for the next process.
  }
  const ajv = new Ajv2020({ ...options, code: { ...options.code, source: true } });
  const standalone = standaloneCode(ajv, ajv.compile(schema)).replace(
    AJV_RUNTIME,
    (_, name: string) => `require(${JSON.stringify(require.resolve(name))})`,
  );
  // The helper goes last, where it keeps the code's "use strict" first.
  const code = `${ERROR_APPENDS.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), standalone)}\n${APPEND_ERRORS}`;
  try {
    mkdirSync(cacheDir, { recursive: true });
    // Threads compiling at once each write their own file; the rename makes one whole file visible.
    const written = `${file}.${process.pid}-${threadId}.tmp`;
    writeFileSync(written, code);
    renameSync(written, file);
  } catch {
    // A read-only install: the code serves this process alone.
  }
  return run(code);
}

/** What ajv's standalone code exports, run here as `require` would run its file. */
function run(code: string): ValidateFunction {
  const module = { exports: {} as ValidateFunction };
  new Function('module', 'exports', 'require', code)(module, module.exports, require);
  return module.exports;
}
