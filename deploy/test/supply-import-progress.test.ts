import { describe, expect, it } from 'vitest';
import type { ImportStats } from '../src/supply-import-pipeline';
import { donePercent, progressReporter } from '../src/supply-import-progress';

const stats = (over: Partial<ImportStats>): ImportStats => ({ read: 0, committed: 0, skipped: 0, rejected: 0, failed: 0, bytesRead: 0, bytesTotal: 100_000, elapsedMs: 1000, retries: 0, ...over });

function captured() {
  const lines: string[] = [];
  const out = { isTTY: false, write: (s: string) => lines.push(s) } as unknown as NodeJS.WriteStream;
  return { lines, out };
}

describe('supply import progress', () => {
  it('counts what the ledger answered, not the bytes read: a file read to the end with every batch in flight is 0 % done', () => {
    const { lines, out } = captured();
    const p = progressReporter(out, 0);
    p.done(stats({ read: 1000, bytesRead: 100_000 }));
    expect(lines[0]).toMatch(/^supply import: 0% done, 1,000 lines read, 0 committed, 0 skipped, 0 rejected, 1,000 pending/);
  });

  it('half the lines read and half of those settled is 25 %; all settled is 100 % with nothing pending', () => {
    expect(donePercent(stats({ read: 500, committed: 200, skipped: 50, bytesRead: 50_000 }))).toBeCloseTo(0.25);
    const { lines, out } = captured();
    progressReporter(out, 0).done(stats({ read: 1000, committed: 400, skipped: 590, rejected: 10, bytesRead: 100_000 }));
    expect(lines[0]).toMatch(/100% done, 1,000 lines read, 400 committed, 590 skipped, 10 rejected, 0 pending/);
  });
});
