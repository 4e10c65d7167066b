import { describe, expect, it } from 'vitest';
import { inBatches } from '../src/batches';

/** An async source fed by hand, like a JetStream consume() iterator. */
function feed<T>() {
  const queue: T[] = [];
  let waiting: ((r: IteratorResult<T>) => void) | undefined;
  let done = false;
  let failure: Error | undefined;
  const source: AsyncIterable<T> = {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        if (failure) return Promise.reject(failure);
        if (queue.length) return Promise.resolve({ value: queue.shift()!, done: false });
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((r) => (waiting = r));
      },
    }),
  };
  const settle = () => {
    const w = waiting;
    waiting = undefined;
    if (!w) return;
    if (queue.length) w({ value: queue.shift()!, done: false });
    else if (done) w({ value: undefined, done: true });
  };
  return {
    source,
    push: (...items: T[]) => {
      queue.push(...items);
      settle();
    },
    end: () => {
      done = true;
      settle();
    },
    fail: (err: Error) => {
      failure = err;
      const w = waiting;
      waiting = undefined;
      w?.(Promise.reject(err) as never);
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('inBatches hands a consumer what arrived since its last batch', () => {
  it('a lone item is handled at once; items arriving while a batch is handled form the next batch, at most max', async () => {
    const f = feed<number>();
    const batches: number[][] = [];
    let release!: () => void;
    const done = inBatches(f.source, 3, async (b) => {
      batches.push(b);
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
    });
    f.push(1);
    await tick();
    expect(batches).toEqual([[1]]);
    f.push(2, 3, 4, 5);
    await tick();
    release();
    await tick();
    f.end();
    await done;
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('rejects with the source error once the items already read are handled', async () => {
    const f = feed<number>();
    const seen: number[] = [];
    const done = inBatches(f.source, 10, async (b) => void seen.push(...b));
    f.push(1);
    await tick();
    f.fail(new Error('connection lost'));
    await expect(done).rejects.toThrow('connection lost');
    expect(seen).toEqual([1]);
  });

  it('with lingerMs, a smaller batch waits for more items (up to max) and no longer than lingerMs; a full batch or the end does not wait', async () => {
    const f = feed<number>();
    const batches: { items: number[]; at: number }[] = [];
    const started = Date.now();
    const done = inBatches(f.source, 3, async (b) => void batches.push({ items: b, at: Date.now() - started }), 200);
    f.push(1);
    await tick();
    // 1 arrived alone: it waits for more instead of being handled at once.
    expect(batches).toEqual([]);
    f.push(2);
    await tick();
    expect(batches).toEqual([]);
    f.push(3);
    await tick();
    // max (3) reached: handled without waiting out the linger.
    expect(batches.map((b) => b.items)).toEqual([[1, 2, 3]]);
    expect(batches[0]!.at).toBeLessThan(150);
    f.push(4);
    await new Promise((r) => setTimeout(r, 600));
    // Nothing more came: 4 is handled once the 200 ms have passed, not before.
    expect(batches.map((b) => b.items)).toEqual([[1, 2, 3], [4]]);
    expect(batches[1]!.at - batches[0]!.at).toBeGreaterThanOrEqual(190);
    f.push(5);
    await tick();
    const endedAt = Date.now() - started;
    f.end();
    await done;
    // The source ended: 5 is handled at once, without the linger.
    expect(batches.map((b) => b.items)).toEqual([[1, 2, 3], [4], [5]]);
    expect(batches[2]!.at - endedAt).toBeLessThan(150);
  });
});
