import { describe, expect, it } from 'vitest';
import { PeriodicTask, type Timers } from './periodic-task';

/** Timers driven by hand: `advance(ms)` fires what is due, in order, without real time passing. */
function manualTimers() {
  let now = 0;
  let seq = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      pending.set(++seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout: (h) => void pending.delete(h as number),
  };
  const settle = () => new Promise((r) => setImmediate(r));
  return {
    timers,
    pending: () => [...pending.values()].map((p) => p.at - now),
    async advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const next = [...pending.entries()].sort((a, b) => a[1].at - b[1].at)[0];
        if (!next || next[1].at > until) break;
        pending.delete(next[0]);
        now = next[1].at;
        next[1].fn();
        await settle();
      }
      now = until;
    },
  };
}

const silent = { error: () => undefined };

describe('PeriodicTask', () => {
  it('runs at start, then every interval after the previous run ended; stop ends the schedule', async () => {
    const t = manualTimers();
    let runs = 0;
    const task = new PeriodicTask('t', 1000, async () => void runs++, silent, t.timers);
    task.start();
    task.start(); // a second start changes nothing
    expect(runs).toBe(0);
    await t.advance(0);
    expect(runs).toBe(1);
    await t.advance(999);
    expect(runs).toBe(1);
    await t.advance(1);
    expect(runs).toBe(2);
    await t.advance(3000);
    expect(runs).toBe(5);
    await task.stop();
    await t.advance(10_000);
    expect(runs).toBe(5);
    expect(t.pending()).toEqual([]);
  });

  it('never overlaps a slow run: the next is scheduled from its end; stop waits for it', async () => {
    const t = manualTimers();
    let release: () => void = () => undefined;
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const task = new PeriodicTask('slow', 100, async () => {
      runs++;
      maxActive = Math.max(maxActive, ++active);
      await new Promise<void>((r) => (release = r));
      active--;
    }, silent, t.timers);
    task.start();
    await t.advance(0);
    expect(runs).toBe(1);
    await t.advance(1000); // the run is still going: nothing else is scheduled
    expect(runs).toBe(1);
    expect(t.pending()).toEqual([]);
    release();
    await new Promise((r) => setImmediate(r));
    expect(t.pending()).toEqual([100]);
    await t.advance(100);
    expect(runs).toBe(2);
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(maxActive).toBe(1);
    expect(t.pending()).toEqual([]);
  });

  it('a failed run is logged and the next one comes on schedule; interval 0 never runs', async () => {
    const t = manualTimers();
    const logged: unknown[] = [];
    let runs = 0;
    const task = new PeriodicTask('flaky', 50, async () => {
      if (++runs === 1) throw new Error('boom');
    }, { error: (o: unknown) => void logged.push(o) }, t.timers);
    task.start();
    await t.advance(50);
    expect(runs).toBe(2);
    expect(logged).toHaveLength(1);
    await task.stop();

    const off = new PeriodicTask('off', 0, async () => void runs++, silent, t.timers);
    off.start();
    expect(t.pending()).toEqual([]);
    await off.stop();
  });
});
