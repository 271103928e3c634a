// Docs that stay true: every relative link of README.md and docs/ leads somewhere (a file, and a
// heading when it names one), every route of the route list is in README.md's route table and in
// docs/api.md, and every setting the functions read is in docs/deployment.md's Configuration table.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '#lib/routes/routeList.ts';
import { repoRoot } from '../../infra/local/paths.ts';
import { MARKERS } from '../../infra/openapi/routeTable.ts';

const DOCS_DIR = 'docs';
/** Built by `npm run docs`, git-ignored: not ours to check. */
const GENERATED_DIRS = ['docs/reference'];

const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

/** README.md and every Markdown file under docs/, as paths from the repository's root. */
const markdownFiles = (): string[] => {
  const walk = (dir: string): string[] =>
    readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return GENERATED_DIRS.includes(path) ? [] : walk(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...(existsSync(join(repoRoot, DOCS_DIR)) ? walk(DOCS_DIR).sort() : [])];
};

/** The text with fenced code blocks blanked (their lines kept, so line numbers hold). */
const withoutCodeBlocks = (text: string): string => {
  let fence: string | undefined;
  return text
    .split('\n')
    .map((line) => {
      const opening = line.match(/^ {0,3}(`{3,}|~{3,})/)?.[1];
      if (fence === undefined) {
        if (opening === undefined) return line;
        fence = opening;
        return '';
      }
      // the closing fence: the opening's character, at least as many, nothing after them
      const closing = line.match(/^ {0,3}(`{3,}|~{3,})\s*$/)?.[1];
      if (closing !== undefined && closing[0] === fence[0] && closing.length >= fence.length)
        fence = undefined;
      return '';
    })
    .join('\n');
};

/** A line with its code spans blanked. */
const withoutCodeSpans = (line: string) =>
  line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (span) => ' '.repeat(span.length));

interface Link {
  file: string;
  line: number;
  target: string;
}

/** Every link of a Markdown file outside code: inline links and images, and reference definitions. */
const linksOf = (file: string): Link[] =>
  withoutCodeBlocks(read(file))
    .split('\n')
    .flatMap((text, index) => {
      const line = withoutCodeSpans(text);
      const targets = [
        ...[...line.matchAll(/\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)].map(
          (match) => match[1] ?? '',
        ),
        ...[...line.matchAll(/^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/g)].map((match) => match[1] ?? ''),
        ...[...line.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]*)"/g)].map(
          (match) => match[1] ?? '',
        ),
      ];
      return targets.map((target) => ({
        file,
        line: index + 1,
        target: target.replace(/^<|>$/g, ''),
      }));
    });

/** A link to another site or protocol (https:, mailto:...): not checked here. */
const isExternal = (target: string) =>
  /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/**
 * A heading's anchor as GitHub makes it: the heading's text (without Markdown's marks) lowercased,
 * each character that is not a letter, digit, space, `-` or `_` dropped, each space made `-`.
 */
const githubSlug = (heading: string): string =>
  heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');

/** Every anchor a Markdown file has: its headings' (a repeated one as GitHub numbers it) and its HTML ids. */
const anchorsOf = (file: string): Set<string> => {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCodeBlocks(read(file)).split('\n')) {
    const heading = line.match(/^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/)?.[1];
    if (heading !== undefined) {
      const slug = githubSlug(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(/<[a-z]+\s[^>]*?(?:id|name)="([^"]+)"/g))
      anchors.add(match[1] ?? '');
  }
  return anchors;
};

/** What is wrong with a relative link, or undefined when it leads somewhere. */
const brokenBecause = ({ file, target }: Link): string | undefined => {
  const hashAt = target.indexOf('#');
  const pathPart = (hashAt < 0 ? target : target.slice(0, hashAt)).replace(/\?.*$/, '');
  const anchor = hashAt < 0 ? undefined : decodeURIComponent(target.slice(hashAt + 1));
  const path =
    pathPart === ''
      ? file
      : relative(repoRoot, resolve(repoRoot, dirname(file), decodeURIComponent(pathPart)));
  if (path.startsWith('..'))
    return `it leads out of the repository (${path}): link to a file in it`;
  if (!existsSync(join(repoRoot, path)))
    return `${path} does not exist: fix the link, or add the file`;
  if (anchor === undefined || anchor === '' || !path.endsWith('.md')) return undefined;
  if (statSync(join(repoRoot, path)).isDirectory()) return undefined;
  if (anchorsOf(path).has(anchor)) return undefined;
  return `${path} has no heading whose anchor is #${anchor}: link to one of its headings (GitHub's anchor: lowercase, punctuation dropped, spaces as -)`;
};

describe('the links of README.md and docs/', () => {
  const files = markdownFiles();

  it.each(files)('%s: every relative link leads to a file, and to a heading it names', (file) => {
    const broken = linksOf(file)
      .filter((link) => !isExternal(link.target))
      .flatMap((link) => {
        const because = brokenBecause(link);
        return because === undefined
          ? []
          : [`${link.file}:${link.line}: (${link.target}) ${because}`];
      });
    expect(broken, broken.join('\n')).toEqual([]);
  });

  it('makes anchors as GitHub does', () => {
    expect(githubSlug('Deploy from CI')).toBe('deploy-from-ci');
    expect(githubSlug('`GET /plants/{id}`: one plant')).toBe('get-plantsid-one-plant');
    expect(githubSlug('One caller never hurts another')).toBe('one-caller-never-hurts-another');
    expect(githubSlug('Limits & throttles (per caller)')).toBe('limits--throttles-per-caller');
    expect(githubSlug('WEBHOOK_URL and [SSM](https://aws.amazon.com/)')).toBe(
      'webhook_url-and-ssm',
    );
  });
});

/** The route list's routes as `METHOD /path`. */
const routes = Object.values(ROUTES).map(({ method, path }) => ({ method, path }));

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `METHOD /path`, the path whole (`/plants` is not `/plants/{id}`). */
const routePattern = ({ method, path }: { method: string; path: string }) =>
  new RegExp(`(^|[^A-Z])${method}[ \\t]+${escapeRegExp(path)}(?![\\w/{}-])`, 'm');

/** Whether a table row of `text` names the route: `METHOD /path` in one cell, or each in a cell of its own. */
const tableNames = (text: string, { method, path }: { method: string; path: string }) => {
  const together = routePattern({ method, path });
  return text
    .split('\n')
    .filter((line) => line.trimStart().startsWith('|'))
    .some((row) => {
      const cells = row.split('|').map((cell) => cell.replace(/`/g, '').trim());
      return (
        together.test(row.replace(/`/g, '')) || (cells.includes(method) && cells.includes(path))
      );
    });
};

describe("the routes in README.md's route table and docs/api.md", () => {
  /** The README's route table: between the markers `npm run openapi` writes it between. */
  const readme = read('README.md');
  const [start, end] = [readme.indexOf(MARKERS[0]), readme.indexOf(MARKERS[1])];
  const routeTable = start >= 0 && end > start ? readme.slice(start, end) : '';

  it("README.md has its route table's markers", () => {
    expect(
      routeTable,
      `keep README.md's route table between the lines ${MARKERS.join(' and ')} (npm run openapi writes it there)`,
    ).not.toBe('');
  });

  it.each(routes)("$method $path is in README.md's route table", (route) => {
    expect(
      tableNames(routeTable, route),
      `add a row for \`${route.method} ${route.path}\` to README.md's route table (npm run openapi writes it)`,
    ).toBe(true);
  });

  it.each(routes)('$method $path is in docs/api.md', (route) => {
    const file = join(repoRoot, DOCS_DIR, 'api.md');
    expect(existsSync(file), 'write docs/api.md: the rules of the API, each route among them').toBe(
      true,
    );
    const text = withoutCodeBlocks(readFileSync(file, 'utf8'));
    const mentioned = tableNames(text, route) || routePattern(route).test(text.replace(/`/g, ''));
    expect(
      mentioned,
      `add \`${route.method} ${route.path}\` to docs/api.md (a row of a table, a heading or a sentence that names it)`,
    ).toBe(true);
  });
});

/** Every variable the functions read: those their loaders read (infra/functionSettings.cjs). */
const settingsTheCodeReads = async (): Promise<string[]> => {
  const { functionVariables } = createRequire(import.meta.url)('../../infra/functionSettings.cjs');
  const variables: Record<string, string[]> = await functionVariables();
  return [...new Set(Object.values(variables).flat())].sort();
};

/** The part of docs/deployment.md under `## Configuration`, up to the next `## ` heading. */
const configurationSection = (text: string): string | undefined => {
  const lines = withoutCodeBlocks(text).split('\n');
  const start = lines.findIndex((line) => /^##\s+Configuration\s*$/.test(line));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, index) => index > start && /^##\s/.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
};

describe("the settings in docs/deployment.md's Configuration table", async () => {
  const settings = await settingsTheCodeReads();

  it('finds the settings the code reads', () => {
    // a sample of them: if none were found, the list below would check nothing
    expect(settings).toEqual(
      expect.arrayContaining(['AUTH_ISSUER', 'PLANTS_TABLE', 'LOG_LEVEL', 'WEBHOOK_URL']),
    );
  });

  it.each(settings)('%s is in the table', (setting) => {
    const file = join(repoRoot, DOCS_DIR, 'deployment.md');
    expect(existsSync(file), 'write docs/deployment.md, with a ## Configuration table').toBe(true);
    const section = configurationSection(readFileSync(file, 'utf8'));
    expect(
      section,
      'add a "## Configuration" section, with its table, to docs/deployment.md',
    ).toBeDefined();
    const rows = (section ?? '').split('\n').filter((line) => line.trimStart().startsWith('|'));
    expect(
      rows.some((row) => row.includes(`\`${setting}\``)),
      `add a row for \`${setting}\` to docs/deployment.md's Configuration table`,
    ).toBe(true);
  });
});
