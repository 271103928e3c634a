import { describe, expect, it } from 'vitest';

describe('runtime', () => {
  it('runs on Node 24 or later (not a silent fallback to an older system Node)', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(major).toBeGreaterThanOrEqual(24);
  });
});
