// The bench's plant as DynamoDB stores it: seeded into DynamoDB Local by bench/seed.ts and answered
// by bench/probe.mjs's stubs. Plain JavaScript, so that a probe loads no TypeScript.

/** The one caller: the subject of every token and the owner of every plant. */
export const CALLER = 'bench';

/** Plant `id`, created at a millisecond of its own (the list's index sorts by it). */
export const plantItem = (id) => ({
  id: { N: String(id) },
  name: { S: 'Monstera' },
  tag: { S: 'indoor' },
  createdAt: { S: new Date(Date.UTC(2026, 10, 22, 10, 0, 0, id % 1000)).toISOString() },
  createdBy: { S: CALLER },
  version: { N: '1' },
});
