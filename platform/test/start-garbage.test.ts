import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
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
});
