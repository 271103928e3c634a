// The published contract: openapi.yaml is what the generator writes, covers docs/api.md's statuses, and
// the response check that the end-to-end tests rely on accepts what the document shows and rejects
// what breaks it.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { OPENAPI_FILE, openApiYaml } from '../../infra/openapi/document.ts';
import {
  contractViolations,
  expectResponseMatchesContract,
  webhookBodyViolations,
} from '../support/openapiResponses.ts';

const committed = readFileSync(
  join(resolve(import.meta.dirname, '..', '..'), OPENAPI_FILE),
  'utf8',
);

interface DeclaredHeader {
  required?: boolean;
  example?: unknown;
  schema?: { const?: unknown };
}
interface Example {
  value: unknown;
}
interface Response {
  headers?: Record<string, DeclaredHeader & { $ref?: string }>;
  content?: Record<string, { examples: Record<string, Example> }>;
}
interface Operation {
  responses: Record<string, Response>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { headers: Record<string, DeclaredHeader> };
}
const document = parse(committed) as Document;
const responses = (document.paths['/plants']?.post ?? { responses: {} }).responses;

/** Every operation of the document: method, path and its responses. */
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ method, path, operation })),
);

/** The headers every answer carries. */
const json = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

describe('openapi.yaml', () => {
  it('is exactly what npm run openapi writes (run it and commit the file when this fails)', async () => {
    expect(committed).toBe(await openApiYaml());
  });

  it("declares every status of docs/api.md's error table for POST /plants", () => {
    expect(Object.keys(responses)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '409',
      '413',
      '415',
      '500',
      '503',
    ]);
  });

  it.each([
    ['GET', '/plants', ['200', '400', '401', '403', '500', '503']],
    ['GET', '/plants/{id}', ['200', '400', '401', '403', '404', '500', '503']],
    ['PUT', '/plants/{id}', ['200', '400', '401', '403', '404', '412', '413', '415', '500', '503']],
    ['DELETE', '/plants/{id}', ['204', '400', '401', '403', '404', '500', '503']],
  ])('declares every status %s %s answers', (method, path, statuses) => {
    const operation = document.paths[path]?.[method.toLowerCase()];
    expect(Object.keys(operation?.responses ?? {})).toEqual(statuses);
  });

  it('describes the plant added webhook under its published name, /plant/webhook, signed', () => {
    const webhook = (
      parse(committed) as { webhooks: Record<string, { post: Record<string, unknown> }> }
    ).webhooks['/plant/webhook']?.post;
    expect(webhook).toMatchObject({
      requestBody: {
        content: { 'application/json': { schema: { $ref: '#/components/schemas/PlantWithId' } } },
      },
    });
    const parameters = (webhook?.parameters ?? []) as {
      name: string;
      in: string;
      required: boolean;
    }[];
    const headers = parameters.filter((p) => p.in === 'header' && p.required).map((p) => p.name);
    expect(headers).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(webhookBodyViolations('{"id":1,"name":"Fern"}')).toEqual([]);
    expect(webhookBodyViolations('{"id":1,"name":"Fern","createdBy":"alice"}')).not.toEqual([]);
  });

  it('answers the Plant on 200 and the Error on every error status, as the specification does', () => {
    for (const [status, response] of Object.entries(responses)) {
      expect(response.content?.['application/json']).toMatchObject({
        schema: { $ref: `#/components/schemas/${status === '200' ? 'Plant' : 'Error'}` },
      });
    }
  });
});

describe('the response check', () => {
  it.each(operations)(
    'accepts every example response of $method $path, with the headers it requires',
    ({ method, path, operation }) => {
      for (const [status, response] of Object.entries(operation.responses)) {
        const headers: Record<string, string> = { ...json };
        for (const [name, header] of Object.entries(response.headers ?? {})) {
          const declared = header.$ref
            ? document.components.headers[header.$ref.split('/').at(-1) ?? '']
            : header;
          if (declared?.required)
            headers[name] = String(declared.schema?.const ?? declared.example);
        }
        const examples = Object.values(response.content?.['application/json']?.examples ?? {});
        if (examples.length === 0) {
          expect(
            contractViolations(method, path, { status: Number(status), headers, body: '' }),
          ).toEqual([]);
        }
        for (const { value } of examples) {
          const answer = { status: Number(status), headers, body: JSON.stringify(value) };
          expect(contractViolations(method, path, answer)).toEqual([]);
        }
      }
    },
  );

  it('rejects a 200 body that carries the id', () => {
    const answer = { status: 200, headers: json, body: '{"name":"Monstera","id":1}' };
    expect(contractViolations('POST', '/plants', answer)).toEqual([
      expect.stringMatching(/must NOT have additional properties: id$/),
    ]);
    expect(() => expectResponseMatchesContract('POST', '/plants', answer)).toThrow(
      /answered 200, which breaks openapi\.yaml/,
    );
  });

  it('rejects an Error body without its message', () => {
    const answer = { status: 400, headers: json, body: '{"error":400}' };
    expect(contractViolations('POST', '/plants', answer)).toEqual([
      expect.stringMatching(/must have required property 'message'/),
    ]);
  });

  it('rejects an undeclared status, a body that is not JSON, another content type and a missing required header', () => {
    const error = (status: number) => JSON.stringify({ error: status, message: 'Nope' });
    expect(
      contractViolations('POST', '/plants', { status: 404, headers: json, body: error(404) }),
    ).toEqual([expect.stringMatching(/status 404 is not declared/)]);
    expect(
      contractViolations('POST', '/plants', { status: 500, headers: json, body: 'Internal' }),
    ).toEqual([expect.stringMatching(/not JSON/)]);
    expect(
      contractViolations('POST', '/plants', {
        status: 400,
        headers: { ...json, 'Content-Type': 'text/plain' },
        body: error(400),
      }),
    ).toEqual([expect.stringMatching(/content type text\/plain is not declared/)]);
    expect(
      contractViolations('POST', '/plants', { status: 503, headers: json, body: error(503) }),
    ).toEqual([expect.stringMatching(/header Retry-After is required but missing/)]);
    expect(
      contractViolations('POST', '/plants', {
        status: 503,
        headers: { ...json, 'retry-after': 'soon' },
        body: error(503),
      }),
    ).toEqual([expect.stringMatching(/header Retry-After: "soon"/)]);
    expect(
      contractViolations('POST', '/plants', { status: 401, headers: json, body: error(401) }),
    ).toEqual([expect.stringMatching(/header WWW-Authenticate is required but missing/)]);
  });
});
