// Store.DeleteCollection's workers (--delete-collection-workers): the listed items are deleted
// that many at a time, to speed up emptying a large collection. As upstream's: fewer than one
// worker is one, never more workers than items, each worker takes the next item in list order once
// its delete is done. A worker whose delete fails stops, the others finish what is left, and the
// first failure is the answer once all have stopped (upstream reads its errors channel after
// wg.Wait). With several workers the deletes, and so their watch events, may land in any order.

export async function deleteListed<T>(items: readonly T[], workers: number, deleteOne: (item: T) => Promise<void>): Promise<void> {
  const count = Math.max(1, Math.min(Math.trunc(workers), items.length));
  let next = 0;
  let failed: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++]!;
      try {
        await deleteOne(item);
      } catch (error) {
        failed ??= { error };
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: count }, worker));
  if (failed) throw failed.error;
}
