/**
 * Feeds `handle` with whatever arrived from `source` since its previous call (at most `max` items),
 * so batches grow with the load. By default a lone message is handled at once, without a wait; with
 * `lingerMs`, a batch smaller than `max` waits up to that long (from when the handler could take it)
 * for more to arrive: fewer, larger batches while messages trickle in, the same latency bound when they
 * stop. Resolves when the source ends (after the last batch); rejects with the source's error.
 */
export async function inBatches<T>(source: AsyncIterable<T>, max: number, handle: (batch: T[]) => Promise<void>, lingerMs = 0): Promise<void> {
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
  const arrival = (ms?: number) =>
    new Promise<void>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (wake = undefined));
  for (;;) {
    if (buffer.length > 0) {
      const until = Date.now() + lingerMs;
      for (let left = lingerMs; buffer.length < max && !ended && left > 0; left = until - Date.now()) await arrival(left);
      await handle(buffer.splice(0, max));
      continue;
    }
    if (ended) break;
    await arrival();
  }
  await reader;
  if (failure) throw failure;
}
