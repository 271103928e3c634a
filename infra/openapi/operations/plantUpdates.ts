// What the document says alike of PUT and PATCH /plants/{id}: a body naming another plant, and a
// stale If-Match.
import { otherIdMessage, versionMismatchMessage } from '#lib/routes/plantUpdates.ts';

export const otherIdExample = {
  summary: 'The body names another plant',
  message: otherIdMessage(2, 1),
};

export const staleVersion = {
  description:
    'The plant no longer has the version `If-Match` names: someone updated it since it was read. Nothing was written; read it again and retry.',
  examples: {
    changed: { summary: 'A concurrent update won', message: versionMismatchMessage(1) },
  },
};
