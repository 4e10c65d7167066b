import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildDashboard } from '../scripts/build';
import { generatedSchema, SCHEMA_FILE } from '../scripts/generate-api';

const BUDGET_GZIP_BYTES = 300 * 1024;

describe('the dashboard build', () => {
  it('stays under 300 KB gzipped in all (every built file), with no inline script or style in index.html', async () => {
    const out = mkdtempSync(join(tmpdir(), 'vat-dashboard-build-'));
    try {
      const files = await buildDashboard(out);
      expect(files.some((f) => f.endsWith('.js'))).toBe(true);
      const sizes = files.map((f) => ({ file: f, gzip: gzipSync(readFileSync(join(out, f)), { level: 9 }).length }));
      const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
      console.log(`[dashboard] built assets: ${sizes.map((s) => `${s.file} ${s.gzip} B`).join(', ')}; ${total} B gzipped in all`);
      expect(total).toBeLessThan(BUDGET_GZIP_BYTES);
      const html = readFileSync(join(out, 'index.html'), 'utf8');
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/<style|style=/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("the client's types are generated from the current OpenAPI document (run `npm run generate:dashboard-api` after a route change)", async () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(await generatedSchema());
  });
});
