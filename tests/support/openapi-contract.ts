// Holds HTTP exchanges to an OpenAPI 3.1 document: the status is one the operation lists, each
// required header is there and matches its schema, and the body matches the schema of its media
// type (JSON Schema 2020-12, by ajv, $refs into the document and to the record schema resolved).
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import recordSchema from '../../src/schema/garment-access-2.4.0.schema.json' with { type: 'json' };

/** An exchange as seen on the wire. */
export interface Exchange {
  status: number;
  headers: Headers | Record<string, string>;
  body: string;
}

type Json = Record<string, any>;

/** Where the document is registered with ajv; its relative $refs resolve against this. */
const BASE = 'https://contract.invalid/openapi.json';

/** A checker of exchanges against `document`; `recordSchemaPath` is where the document's $ref finds the record schema. */
export function contractOf(document: Json, recordSchemaPath: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addSchema(recordSchema, new URL(recordSchemaPath, BASE).href);
  ajv.addSchema(document, BASE);

  const pointer = (...tokens: string[]) => `#/${tokens.map((token) => token.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
  const validatorAt = (tokens: string[]) =>
    ajv.getSchema(`${BASE}${pointer(...tokens)}`) ?? ajv.compile({ $ref: `${BASE}${pointer(...tokens)}` });

  /** What is wrong with a response of an operation, or [] when it keeps the contract. */
  function responseProblems(method: string, pathTemplate: string, exchange: Exchange): string[] {
    const at = `${method.toUpperCase()} ${pathTemplate} → ${exchange.status}`;
    const operation = document.paths?.[pathTemplate]?.[method.toLowerCase()];
    if (operation === undefined) return [`${at}: no such operation in the document`];
    const statusKey = [String(exchange.status), `${String(exchange.status)[0]}XX`, 'default'].find((key) => key in operation.responses);
    if (statusKey === undefined) return [`${at}: status not in the document (it lists ${Object.keys(operation.responses).join(', ')})`];
    const entry = operation.responses[statusKey];
    // A response given by $ref (components/responses) is read, and its schemas compiled, where it is.
    const tokens =
      typeof entry.$ref === 'string' ? tokensOf(entry.$ref) : ['paths', pathTemplate, method.toLowerCase(), 'responses', statusKey];
    return messageProblems(at, walk(document, tokens), tokens, exchange);
  }

  /** What is wrong with a webhook request the service sent, or [] when it keeps the contract. */
  function webhookProblems(event: string, request: { headers: Record<string, string | string[] | undefined>; body: string }): string[] {
    const at = `webhook ${event}`;
    const operation = document.webhooks?.[event]?.post;
    if (operation === undefined) return [`${at}: not in the document`];
    const problems: string[] = [];
    operation.parameters.forEach((parameter: Json, index: number) => {
      const value = request.headers[parameter.name.toLowerCase()];
      if (value === undefined) {
        if (parameter.required) problems.push(`${at}: header ${parameter.name} missing`);
        return;
      }
      const validate = validatorAt(['webhooks', event, 'post', 'parameters', String(index), 'schema']);
      if (!validate(value)) problems.push(`${at}: header ${parameter.name}: ${explain(validate.errors)}`);
    });
    const validate = validatorAt(['webhooks', event, 'post', 'requestBody', 'content', 'application/json', 'schema']);
    if (!validate(JSON.parse(request.body))) problems.push(`${at}: body: ${explain(validate.errors)}`);
    return problems;
  }

  function messageProblems(at: string, response: Json, tokens: string[], exchange: Exchange): string[] {
    const problems: string[] = [];
    const headerOf = (name: string) =>
      exchange.headers instanceof Headers ? (exchange.headers.get(name) ?? undefined) : exchange.headers[name.toLowerCase()];
    for (const [name, header] of Object.entries<Json>(response.headers ?? {})) {
      const value = headerOf(name);
      if (value === undefined) {
        if (header.required) problems.push(`${at}: header ${name} missing`);
        continue;
      }
      const validate = validatorAt([...tokens, 'headers', name, 'schema']);
      if (!validate(value)) problems.push(`${at}: header ${name}: ${JSON.stringify(value)} ${explain(validate.errors)}`);
    }
    if (response.content === undefined) return problems;
    const mediaType = (headerOf('content-type') ?? '').split(';')[0]!.trim();
    if (!(mediaType in response.content))
      return [...problems, `${at}: media type ${JSON.stringify(mediaType)} not in ${Object.keys(response.content).join(', ')}`];
    let body: unknown;
    try {
      body = JSON.parse(exchange.body);
    } catch {
      return [...problems, `${at}: body is not JSON: ${exchange.body.slice(0, 200)}`];
    }
    const validate = validatorAt([...tokens, 'content', mediaType, 'schema']);
    if (!validate(body)) problems.push(`${at}: body ${exchange.body.slice(0, 300)}: ${explain(validate.errors)}`);
    return problems;
  }

  return { responseProblems, webhookProblems };
}

/** ajv's errors in one line each, with what each is about (the property, the value allowed), which errorsText leaves out. */
function explain(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`).join('; ');
}

/** The tokens of a local JSON pointer. @example tokensOf('#/components/responses/NotFound') → ['components', 'responses', 'NotFound'] */
function tokensOf(ref: string): string[] {
  return ref
    .slice(2)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** The value at the tokens' place in the document. */
function walk(document: Json, tokens: string[]): Json {
  return tokens.reduce((value: Json, token) => value?.[token], document);
}
