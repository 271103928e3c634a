// The README's route table (The API at a glance), written by `npm run openapi` between its markers from the
// document the route list makes, so that a route's row is its operation's own words.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../local/paths.ts';
import { openApiDocument } from './document.ts';
import { commonHeaders } from './responses.ts';

export const README_FILE = 'README.md';
export const MARKERS = ['<!-- routes: written by npm run openapi -->', '<!-- /routes -->'] as const;
/** Left out of each row: docs/api.md's error table says when any route answers them. */
const SHARED_STATUSES = ['400', '401', '403', '413', '415', '500', '503'];

type Schema = { $ref?: string; items?: Schema };
type Content = { schema?: Schema; examples?: Record<string, { summary: string }> };
type Response = { headers?: object; content?: Record<string, Content> };
type Paths = Record<string, Record<string, { description: string; responses: object }>>;

const nameOf = ({ $ref = '', items }: Schema): string =>
  items ? `${nameOf(items)}[]` : `${$ref.split('/').pop()}`;

/** A success as its status, schema and own headers; an error as its status and its examples. */
const answerOf = ([status, { headers = {}, content }]: [string, Response]) => {
  if (SHARED_STATUSES.includes(status)) return [];
  const { schema, examples = {} } = content?.['application/json'] ?? {};
  const whens = Object.values(examples).map((e) => e.summary.replace(/^./, (c) => c.toLowerCase()));
  if (Number(status) >= 400) return `${status} (${whens.join('; ')})`;
  const own = Object.keys(headers).filter((name) => !(name in commonHeaders));
  return `${status}${schema ? ` \`${nameOf(schema)}\`` : ''}${own.length > 0 ? ` with \`${own.join('`, `')}\`` : ''}`;
};

/** The README with its route table as the document has it now, in the document's order. */
export const readmeWithRouteTable = async (): Promise<string> => {
  const readme = readFileSync(join(repoRoot, README_FILE), 'utf8');
  const [start, end] = [readme.indexOf(MARKERS[0]), readme.indexOf(MARKERS[1])];
  if (start < 0 || end < start) throw new Error(`${README_FILE} lacks the markers ${MARKERS}`);
  const paths = (await openApiDocument()).paths as Paths;
  const rows = Object.entries(paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, { description, responses }]) => {
      // the description's first sentence: what the route does; the rest is the document's
      const does = description.match(/^.*?\.(?=\s|$)/s)?.[0] ?? description;
      const answers = Object.entries(responses).flatMap(answerOf).join('; ');
      const cells = [`\`${method.toUpperCase()} ${path}\``, does, answers];
      return `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
    }),
  );
  const table = ['| route | does | answers |', '| --- | --- | --- |', ...rows].join('\n');
  return `${readme.slice(0, start + MARKERS[0].length)}\n${table}\n${readme.slice(end)}`;
};
