// `npm run release:notes -- <version>`: that version's section of CHANGELOG.md, for its GitHub release
// (.github/workflows/release.yml). Node alone runs it: the release job installs no packages.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const RELEASING = 'docs/contributing.md, "Releasing"';

/** The lines under `## [version]` (or `## version`), up to the next `## ` heading. */
const sectionOf = (lines: string[], version: string) => {
  const heading = (line: string) => /^## \[?([^\]\s]+)\]?(?:\s|$)/.exec(line)?.[1];
  const start = lines.findIndex((line) => heading(line) === version);
  if (start === -1) return undefined;
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return lines.slice(start + 1, end === -1 ? undefined : end);
};

// The body of `version`'s section of `changelog` (Keep a Changelog), its empty subsections left
// out; throws, saying what to do, when the section is missing or holds no entry.
export const releaseNotes = (changelog: string, version: string): string => {
  const section = sectionOf(changelog.split(/\r?\n/), version);
  if (!section)
    throw new Error(
      `CHANGELOG.md has no section for ${version}: move the entries of [Unreleased] under a heading "## [${version}] - YYYY-MM-DD" (${RELEASING})`,
    );
  // each `### ` subsection with its entries; one with none is left out
  const blocks: string[][] = [[]];
  for (const line of section) {
    if (line.startsWith('### ')) blocks.push([]);
    blocks.at(-1)?.push(line);
  }
  const kept = blocks.filter((block) => block.some((line) => line.trim() && !/^#/.test(line)));
  if (kept.length === 0)
    throw new Error(
      `CHANGELOG.md's section for ${version} has no entry: write its changes under ### Added, ### Changed or ### Fixed (${RELEASING})`,
    );
  // each block trimmed and none empty: the notes begin and end with text
  return kept.map((block) => block.join('\n').trim()).join('\n\n');
};

if (import.meta.main) {
  const [version, ...more] = process.argv.slice(2);
  if (!version || more.length > 0) {
    console.error("usage: npm run release:notes -- <version> (package.json's, such as 1.0.0)");
    process.exit(2);
  }
  try {
    const changelog = readFileSync(resolve(import.meta.dirname, '..', 'CHANGELOG.md'), 'utf8');
    process.stdout.write(`${releaseNotes(changelog, version)}\n`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
