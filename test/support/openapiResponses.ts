// Every response a test receives, checked against the published contract (openapi.yaml): its status
// is declared for the operation, its content type is one the document lists, its body validates
// against the declared schema (which forbids undeclared properties), and the headers the document
// requires are present and well-formed. One helper, so each new test gets the check for free.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { repoRoot } from '../../infra/local/paths.ts';
import { headerOf, type ResponseHeaders } from './headers.ts';

const DOCUMENT = 'openapi.yaml';

export interface ContractResponse {
  status: number;
  /** any name casing */
  headers: ResponseHeaders;
  /** the body as received, unparsed: whether it is JSON is part of the check */
  body: string;
}

type Node = Record<string, unknown>;

interface Contract {
  document: Node;
  ajv: Ajv2020;
}

let loaded: Contract | undefined;

const contract = (): Contract => {
  if (loaded) return loaded;
  const document = parse(readFileSync(join(repoRoot, DOCUMENT), 'utf8')) as Node;
  // allErrors: report every problem of a body at once
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  // the OpenAPI integer formats: the schemas' minimum and maximum already say the range
  ajv.addFormat('int32', true);
  ajv.addFormat('int64', true);
  // Zod's ISO formats: the pattern Zod writes beside each already checks the text
  for (const format of ['date', 'date-time', 'time', 'duration']) ajv.addFormat(format, true);
  // an absolute URL, as the URL parser reads it
  ajv.addFormat('uri', (text: string) => URL.canParse(text));
  // the document is added whole, so its own `$ref`s resolve; its top-level fields are not JSON
  // Schema keywords (strict mode would reject them), and the schemas are compiled from within it
  ajv.addVocabulary(Object.keys(document));
  ajv.addSchema(document, DOCUMENT);
  loaded = { document, ajv };
  return loaded;
};

const escapePointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

const at = (document: Node, pointer: string): unknown =>
  pointer
    .split('/')
    .slice(1)
    .reduce<unknown>(
      (node, segment) =>
        (node as Node | undefined)?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')],
      document,
    );

/** The object at `pointer`, following a local `$ref` (a response or header defined in components). */
const follow = (document: Node, pointer: string): { node: Node | undefined; pointer: string } => {
  const node = at(document, pointer) as Node | undefined;
  const ref = node?.$ref;
  return typeof ref === 'string' && ref.startsWith('#/')
    ? follow(document, ref.slice(1))
    : { node, pointer };
};

/** ajv's errors as one line: where, what, and the property at fault ("must NOT have additional properties: id"). */
const describeErrors = (errors: readonly ErrorObject[]) =>
  errors
    .map(({ instancePath, message, params }) => {
      const property = (params as { additionalProperty?: string }).additionalProperty;
      return `${instancePath ? `${instancePath} ` : ''}${message ?? 'is invalid'}${property ? `: ${property}` : ''}`;
    })
    .join('; ');

/** What is wrong with a response of `method path` by the document: empty when it matches. */
export const contractViolations = (
  method: string,
  path: string,
  { status, headers, body }: ContractResponse,
): string[] => {
  const { document, ajv } = contract();
  const operationPointer = `/paths/${escapePointer(path)}/${method.toLowerCase()}`;
  const responses = at(document, `${operationPointer}/responses`) as Node | undefined;
  if (!responses) return [`${method.toUpperCase()} ${path} is not an operation of ${DOCUMENT}`];
  const declared = String(status) in responses ? String(status) : 'default';
  if (!(declared in responses)) {
    return [`status ${status} is not declared (declared: ${Object.keys(responses).join(', ')})`];
  }
  const response = follow(document, `${operationPointer}/responses/${declared}`);
  const problems: string[] = [];

  for (const name of Object.keys((response.node?.headers ?? {}) as Node)) {
    const header = follow(document, `${response.pointer}/headers/${escapePointer(name)}`);
    const received = headerOf({ headers }, name);
    if (received === undefined) {
      if (header.node?.required === true) problems.push(`header ${name} is required but missing`);
      continue;
    }
    const validate = ajv.getSchema(`${DOCUMENT}#${header.pointer}/schema`);
    const schemaType = (header.node?.schema as Node | undefined)?.type;
    // header values are text: an integer header must be written as one
    const parsed =
      schemaType === 'integer' && /^-?\d+$/.test(received) ? Number(received) : received;
    if (validate && !validate(parsed)) {
      problems.push(`header ${name}: "${received}": ${describeErrors(validate.errors ?? [])}`);
    }
  }

  const content = response.node?.content as Node | undefined;
  const mediaType = headerOf({ headers }, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  if (!content) {
    if (body !== '') problems.push('a body was sent, but the document declares none');
    return problems;
  }
  if (!mediaType || !(mediaType in content)) {
    problems.push(
      `content type ${mediaType || '(none)'} is not declared (declared: ${Object.keys(content).join(', ')})`,
    );
    return problems;
  }
  let parsedBody: unknown;
  try {
    parsedBody = JSON.parse(body);
  } catch {
    problems.push(`the body is not JSON: ${body.slice(0, 200)}`);
    return problems;
  }
  const validate = ajv.getSchema(
    `${DOCUMENT}#${response.pointer}/content/${escapePointer(mediaType)}/schema`,
  );
  if (!validate) {
    problems.push(`no schema is declared for ${mediaType}`);
  } else if (!validate(parsedBody)) {
    problems.push(`the body ${body.slice(0, 200)}: ${describeErrors(validate.errors ?? [])}`);
  }
  return problems;
};

/** Fails (throws) when a response of `method path` breaks the document, listing every problem. */
export const expectResponseMatchesContract = (
  method: string,
  path: string,
  response: ContractResponse,
): void => {
  const problems = contractViolations(method, path, response);
  if (problems.length > 0) {
    throw new Error(
      `${method.toUpperCase()} ${path} answered ${response.status}, which breaks ${DOCUMENT}:\n- ${problems.join('\n- ')}`,
    );
  }
};

/** What is wrong with a delivery's body by the document's `webhook` (by default the operator's "plant added"): empty when it matches. */
export const webhookBodyViolations = (body: string, webhook = '/plant/webhook'): string[] => {
  const { ajv } = contract();
  const validate = ajv.getSchema(
    `${DOCUMENT}#/webhooks/${escapePointer(webhook)}/post/requestBody/content/application~1json/schema`,
  );
  if (!validate) return [`the document declares no ${webhook} webhook body`];
  return validate(JSON.parse(body)) ? [] : [describeErrors(validate.errors ?? [])];
};
