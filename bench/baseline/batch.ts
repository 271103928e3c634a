// How a hand-written consumer answers its batch, as ours (lib/webhooks/batchResponse.ts): every
// record handled at once, each that failed named for its source to offer again.
/** The handler of a batch whose records `handle` takes; a record it throws on is named by `idOf`. */
export const eachRecord =
  <R>(idOf: (record: R) => string | undefined, handle: (record: R) => Promise<unknown>) =>
  async (event: { Records: R[] }) => {
    const batchItemFailures: { itemIdentifier: string }[] = [];
    await Promise.all(
      event.Records.map((record) =>
        handle(record).catch(() => batchItemFailures.push({ itemIdentifier: idOf(record) ?? '' })),
      ),
    );
    return { batchItemFailures };
  };
