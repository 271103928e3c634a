// The bench's plant as DynamoDB stores it: seeded into DynamoDB Local by bench/seed.ts and answered
// by bench/probe.mjs's stubs. Plain JavaScript, so that a probe loads no TypeScript.

/** The one caller: the subject of every token and the owner of every plant. */
export const CALLER = 'bench';

/**
 * The name of the large plant (the `<function>:large` kinds): 32,600 `"`, the worst case for
 * escaping, so that its body (65 KB) is near the 64 KiB limit and a delivery message of it, escaped
 * twice, about 130 KB.
 */
export const LARGE_NAME = '"'.repeat(32_600);

/** Plant `id`, created at a millisecond of its own (the list's index sorts by it). */
export const plantItem = (id, name = 'Monstera') => ({
  id: { N: String(id) },
  name: { S: name },
  tag: { S: 'indoor' },
  createdAt: { S: new Date(Date.UTC(2026, 10, 22, 10, 0, 0, id % 1000)).toISOString() },
  createdBy: { S: CALLER },
  version: { N: '1' },
});
