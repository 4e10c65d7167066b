import type { ImportStats } from './supply-import-pipeline';

const fmt = (n: number) => n.toLocaleString('en-US');

function rate(s: ImportStats): number {
  return s.elapsedMs > 0 ? Math.round((s.read * 1000) / s.elapsedMs) : 0;
}

function counts(s: ImportStats): string {
  const failed = s.failed ? `, ${fmt(s.failed)} failed` : '';
  const retries = s.retries ? `, ${fmt(s.retries)} retries` : '';
  return `${fmt(s.read)} lines read, ${fmt(s.committed)} committed, ${fmt(s.skipped)} skipped, ${fmt(s.rejected)} rejected${failed}${retries}, ${fmt(rate(s))} lines/s`;
}

/**
 * Progress on stderr: a redrawn bar when it is a terminal, otherwise a plain line every
 * `everyMs` (logs and CI output stay readable).
 */
export function progressReporter(out: NodeJS.WriteStream, everyMs = out.isTTY ? 200 : 5000): { update(s: ImportStats): void; done(s: ImportStats): void } {
  let last = Date.now();
  const percent = (s: ImportStats) => (s.bytesTotal > 0 ? Math.min(1, s.bytesRead / s.bytesTotal) : 1);
  const draw = (s: ImportStats) => {
    if (out.isTTY) {
      const width = 24;
      const filled = Math.round(percent(s) * width);
      out.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(percent(s) * 100).toFixed(0).padStart(3)}% ${counts(s)}\x1b[K`);
    } else out.write(`supply import: ${(percent(s) * 100).toFixed(0)}% of the file, ${counts(s)}\n`);
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
