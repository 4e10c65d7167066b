/**
 * Feeds `handle` with whatever arrived from `source` since its previous call (at most `max` items),
 * so batches grow with the load while a lone message is handled at once, without a wait. Resolves
 * when the source ends (after the last batch); rejects with the source's error.
 */
export async function inBatches<T>(source: AsyncIterable<T>, max: number, handle: (batch: T[]) => Promise<void>): Promise<void> {
  const buffer: T[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: unknown;
  const reader = (async () => {
    try {
      for await (const item of source) {
        buffer.push(item);
        wake?.();
      }
    } catch (err) {
      failure = err;
    } finally {
      ended = true;
      wake?.();
    }
  })();
  for (;;) {
    if (buffer.length > 0) {
      await handle(buffer.splice(0, max));
      continue;
    }
    if (ended) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
  await reader;
  if (failure) throw failure;
}
