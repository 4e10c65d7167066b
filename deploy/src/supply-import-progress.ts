import type { ImportStats } from './supply-import-pipeline';

const fmt = (n: number) => n.toLocaleString('en-US');

function rate(s: ImportStats): number {
  return s.elapsedMs > 0 ? Math.round((s.read * 1000) / s.elapsedMs) : 0;
}

/** Lines the ledger has answered for (or that were refused before it): what the percentage counts. */
const settled = (s: ImportStats) => s.committed + s.skipped + s.rejected + s.failed;

function counts(s: ImportStats): string {
  const failed = s.failed ? `, ${fmt(s.failed)} failed` : '';
  const retries = s.retries ? `, ${fmt(s.retries)} retries` : '';
  const pending = s.read - settled(s);
  return `${fmt(s.read)} lines read, ${fmt(s.committed)} committed, ${fmt(s.skipped)} skipped, ${fmt(s.rejected)} rejected${failed}, ${fmt(pending)} pending${retries}, ${fmt(rate(s))} lines/s`;
}

/**
 * The share of the file done: of the lines read, those settled, scaled by how much of the file was read
 * (bytes). Reading runs ahead of the ledger, so the bytes alone would show 100 % with batches in flight.
 */
export function donePercent(s: ImportStats): number {
  const readShare = s.bytesTotal > 0 ? Math.min(1, s.bytesRead / s.bytesTotal) : 1;
  const settledShare = s.read > 0 ? settled(s) / s.read : s.bytesRead >= s.bytesTotal ? 1 : 0;
  return readShare * settledShare;
}

/**
 * Progress on stderr: a redrawn bar when it is a terminal, otherwise a plain line every
 * `everyMs` (logs and CI output stay readable).
 */
export function progressReporter(out: NodeJS.WriteStream, everyMs = out.isTTY ? 200 : 5000): { update(s: ImportStats): void; done(s: ImportStats): void } {
  let last = Date.now();
  const percent = donePercent;
  const draw = (s: ImportStats) => {
    if (out.isTTY) {
      const width = 24;
      const filled = Math.round(percent(s) * width);
      out.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(percent(s) * 100).toFixed(0).padStart(3)}% ${counts(s)}\x1b[K`);
    } else out.write(`supply import: ${(percent(s) * 100).toFixed(0)}% done, ${counts(s)}\n`);
  };
  return {
    update(s) {
      const now = Date.now();
      if (now - last < everyMs) return;
      last = now;
      draw(s);
    },
    done(s) {
      draw(s);
      if (out.isTTY) out.write('\n');
    },
  };
}
