import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Where `npm install` (postinstall) and `npm run build:dashboard` write the dashboard's built files. */
export const DASHBOARD_DIST = fileURLToPath(new URL('../../dashboard/dist/', import.meta.url));

export type Asset = { body: Buffer; gzip: Buffer; mediaType: string; etag: string; immutable: boolean };

const MEDIA_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The built dashboard, read once at start and kept in memory with its gzip form: a few small files,
 * answered without touching the disk. Files under `assets/` carry a content hash in their name (cached
 * for a year); `index.html` is revalidated each time. Undefined when the dashboard was never built.
 */
export function loadDashboardAssets(dir = DASHBOARD_DIST): Map<string, Asset> | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const assets = new Map<string, Asset>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const mediaType = MEDIA_TYPES[extname(name)];
        if (!mediaType) continue;
        const body = readFileSync(path);
        const rel = relative(dir, path).split(sep).join('/');
        assets.set(rel, { body, gzip: gzipSync(body, { level: 9 }), mediaType, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`, immutable: rel.startsWith('assets/') });
      }
    }
  };
  walk(dir);
  return assets;
}
