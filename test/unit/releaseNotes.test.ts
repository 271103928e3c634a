// The release notes (npm run release:notes): package.json's version's section of the real
// CHANGELOG.md, and what a changelog without it, or with it empty, is told to do.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../infra/local/paths.ts';
import { releaseNotes } from '../../infra/releaseNotes.ts';

const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

const changelog = `# Changelog

## [Unreleased]

### Added

- Something not released yet.

## [1.1.0] - 2026-12-01

### Added

- \`GET /plants/{id}/history\`.

### Changed

### Fixed

- A fix, on
  two lines.

## [1.0.0] - 2026-11-27

### Added

- The first version.
`;

describe('releaseNotes', () => {
  it("answers package.json's version's section of CHANGELOG.md", () => {
    const { version } = JSON.parse(read('package.json')) as { version: string };
    const notes = releaseNotes(read('CHANGELOG.md'), version);

    expect(notes).toMatch(/^### (Added|Changed|Fixed)\n\n- /);
    expect(notes).not.toMatch(/^## /m);
  });

  it("answers the version's body only, leaving out a subsection with no entry", () => {
    expect(releaseNotes(changelog, '1.1.0')).toBe(
      '### Added\n\n- `GET /plants/{id}/history`.\n\n### Fixed\n\n- A fix, on\n  two lines.',
    );
    expect(releaseNotes(changelog, '1.0.0')).toBe('### Added\n\n- The first version.');
  });

  it('refuses a version the changelog has no section for, saying what to do', () => {
    expect(() => releaseNotes(changelog, '1.2.0')).toThrow(
      'CHANGELOG.md has no section for 1.2.0: move the entries of [Unreleased] under a heading "## [1.2.0] - YYYY-MM-DD" (docs/contributing.md, "Releasing")',
    );
    // a version is not found inside another's heading
    expect(() => releaseNotes(changelog, '1.1')).toThrow(/no section for 1\.1:/);
  });

  it('refuses a section with no entry, its subsections empty', () => {
    const empty = changelog.replace(
      '## [1.1.0]',
      '## [1.2.0] - 2026-12-02\n\n### Added\n\n## [1.1.0]',
    );
    expect(() => releaseNotes(empty, '1.2.0')).toThrow(
      "CHANGELOG.md's section for 1.2.0 has no entry: write its changes under ### Added, ### Changed or ### Fixed",
    );
  });
});
