import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { collectStartGarbage } from '../src/start-garbage';

describe('collectStartGarbage (after a start, before listening)', () => {
  it('runs one major collection and leaves no global gc behind', async () => {
    const entries: PerformanceEntry[] = [];
    const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
    observer.observe({ entryTypes: ['gc'] });
    // Garbage that survives scavenges (as the start's reference data does) until a major collection.
    let held: string[][] | undefined = Array.from({ length: 2_000 }, (_, i) => Array.from({ length: 50 }, (_, j) => `${i}:${j}`));
    expect(held.length).toBe(2_000);
    held = undefined;
    const ms = collectStartGarbage();
    await new Promise((r) => setTimeout(r, 50));
    observer.disconnect();
    expect(ms).toBeGreaterThan(0);
    const kinds = entries.map((e) => (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind);
    expect(kinds).toContain(constants.NODE_PERFORMANCE_GC_MAJOR);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it('threads that collect at the same moment each get their collection (V8 flags are the process’s)', async () => {
    // The embedded database's thread and the main thread each collect their start's garbage; a second database
    // (npm start whose configuration names another DATA_DIR) opens beside the first. One thread turning
    // --expose-gc off while another had just turned it on left the other without gc: it threw, and the database
    // thread, whose start had succeeded, reported a failure and stopped answering (a stop waited forever).
    const THREADS = 6;
    const ROUNDS = 5;
    const module = new URL('../src/start-garbage.ts', import.meta.url).href;
    const code = `
      const { workerData, parentPort } = require('node:worker_threads');
      (async () => {
        const { collectStartGarbage } = await import(workerData.module);
        const flags = new Int32Array(workerData.flags);
        Atomics.add(flags, 1, 1);
        Atomics.wait(flags, 0, 0);
        try {
          parentPort.postMessage({ ms: collectStartGarbage() });
        } catch (err) {
          parentPort.postMessage({ error: String(err) });
        }
      })();`;
    for (let round = 0; round < ROUNDS; round++) {
      const flags = new Int32Array(new SharedArrayBuffer(8));
      const workers = Array.from({ length: THREADS }, () => new Worker(code, { eval: true, workerData: { module, flags: flags.buffer }, execArgv: ['--import', 'tsx'] }));
      const answers = workers.map((w) => new Promise<{ ms?: number; error?: string }>((resolve, reject) => {
        w.once('message', resolve);
        w.once('error', reject);
      }));
      // Every thread waits at the same line; then all go at once.
      while (Atomics.load(flags, 1) < THREADS) await new Promise((r) => setTimeout(r, 5));
      Atomics.store(flags, 0, 1);
      Atomics.notify(flags, 0);
      const results = await Promise.all(answers);
      await Promise.all(workers.map((w) => w.terminate()));
      for (const r of results) {
        expect(r.error).toBeUndefined();
        expect(r.ms).toBeGreaterThan(0);
      }
    }
  }, 60_000);
});
