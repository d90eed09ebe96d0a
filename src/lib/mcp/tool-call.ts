// What a tool is, how its arguments are checked against its input schema, and how what it found
// becomes an MCP tool result: structured content, or `isError` with every problem.
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { describeValue, pointerToken } from '../record/problem.ts';

/** A JSON Schema object, in the subset of keywords draft 7 and 2020-12 read alike, so any client can use it. */
export type JsonSchema = Record<string, unknown>;

/** One thing wrong with a call: where in the arguments (a JSON pointer, '' for the call itself) and what. */
export interface ToolProblem {
  pointer: string;
  message: string;
}

/** Why a call did not succeed: a code a program can branch on, a sentence, and the problems. */
export interface ToolError {
  code: string;
  message: string;
  problems: ToolProblem[];
}

/** What a tool's work gave: its structured result (and, if not the result's JSON, the text to show), or an error. */
export type ToolOutcome = { ok: true; result: Record<string, unknown>; text?: string } | { ok: false; error: ToolError };

/** One progress notification: how far (0 to total) and what is being done. */
export interface ProgressReport {
  progress: number;
  total: number;
  message: string;
}

/** What a call knows besides its arguments. */
export interface ToolCallContext {
  /** Aborted when the client cancels the call or goes away. */
  signal: AbortSignal;
  /** The caller's organization; undefined for an anonymous caller. */
  organizationId: string | undefined;
  /** Sends the caller a progress notification; undefined when the caller sent no progressToken. */
  reportProgress: ((report: ProgressReport) => Promise<void>) | undefined;
}

/** A tool: what tools/list shows of it, who may call it, and its work. */
export interface Tool extends ToolDefinition {
  run: (args: Record<string, unknown>, context: ToolCallContext) => Promise<ToolOutcome>;
}

/** What tools/list shows of a tool, and who may call it. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: { readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint: boolean };
  /** 'key': only a caller with an API key may call it (and sees it listed). */
  access: 'anyone' | 'key';
}

/** A failed outcome. */
export function toolError(code: string, message: string, problems: ToolProblem[] = []): ToolOutcome {
  return { ok: false, error: { code, message, problems } };
}

/**
 * The MCP result of an outcome. A success carries its structured result and, as text, the same
 * JSON (or the text the tool chose); an error carries `{"error": {code, message, problems}}` as
 * text, the shape the HTTP API's errors take, and no structured content, which would have to
 * match the output schema.
 */
export function toolResult(outcome: ToolOutcome): CallToolResult {
  if (!outcome.ok) return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: outcome.error }, null, 2) }] };
  return { structuredContent: outcome.result, content: [{ type: 'text', text: outcome.text ?? JSON.stringify(outcome.result, null, 2) }] };
}

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, verbose: true });
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/**
 * Every problem with a call's arguments against a tool's input schema, worded for people.
 * @example argumentProblems(schema, { limit: 0 }) → [{ pointer: '/limit', message: 'expected a number from 1 to 50; got 0' }]
 */
export function argumentProblems(schema: JsonSchema, args: unknown): ToolProblem[] {
  let validate = compiled.get(schema);
  if (validate === undefined) compiled.set(schema, (validate = ajv.compile(schema)));
  if (validate(args)) return [];
  const problems = (validate.errors ?? []).filter((error) => error.keyword !== 'if').map(explainError);
  return problems.filter(
    (problem, at) => problems.findIndex((other) => other.pointer === problem.pointer && other.message === problem.message) === at,
  );
}

function explainError(error: ErrorObject): ToolProblem {
  const { params, instancePath } = error;
  const got = describeValue(error.data);
  const schema = error.parentSchema as { minimum?: number; maximum?: number; properties?: object } | undefined;
  switch (error.keyword) {
    case 'required':
      return {
        pointer: `${instancePath}/${pointerToken(params.missingProperty)}`,
        message: `missing required argument "${params.missingProperty}"`,
      };
    case 'additionalProperties':
      return {
        pointer: `${instancePath}/${pointerToken(params.additionalProperty)}`,
        message: `unknown argument "${String(params.additionalProperty).slice(0, 60)}"; allowed: ${Object.keys(schema?.properties ?? {}).join(', ')}`,
      };
    case 'enum':
      return {
        pointer: instancePath,
        message: `expected one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}; got ${got}`,
      };
    case 'pattern':
      return { pointer: instancePath, message: `must match ${params.pattern}; got ${got}` };
    case 'minimum':
    case 'maximum': {
      const range = schema?.maximum === undefined ? `of at least ${schema?.minimum}` : `from ${schema?.minimum} to ${schema.maximum}`;
      return { pointer: instancePath, message: `expected a number ${range}; got ${got}` };
    }
    case 'type':
      return { pointer: instancePath, message: `expected ${String(params.type).split(',').join(' or ')}; got ${got}` };
    case 'maxLength':
      return { pointer: instancePath, message: `expected at most ${params.limit} characters; got ${String(error.data).length}` };
    case 'minLength':
      return { pointer: instancePath, message: `expected a non-empty string; got ""` };
    case 'maxItems':
      return { pointer: instancePath, message: `expected at most ${params.limit} values; got ${(error.data as unknown[]).length}` };
    default:
      return { pointer: instancePath, message: `${error.message ?? 'is invalid'}; got ${got}` };
  }
}
