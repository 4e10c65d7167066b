import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '@vat/platform/config';
import { buildTemplateWith } from '@vat/platform/embedded-pg-template';
import { build } from './build';
import { pruneSeededTemplates, seededTemplateDir, seededTemplateFingerprint } from './seeded-template';

/**
 * Builds the seeded template of the current sources (a no-op when it is there): a first start of every service
 * on a new data directory, through the one composition root, with a throwaway data-encryption key (no key file
 * is written, and nothing stored at a first start is encrypted), stopped cleanly before its cluster is kept.
 */
export async function buildSeededTemplate(): Promise<{ outcome: 'exists' | 'built'; dir: string }> {
  const fingerprint = seededTemplateFingerprint();
  const dir = seededTemplateDir(fingerprint);
  const outcome = await buildTemplateWith(dir, { fingerprint }, async (pgDir) => {
    // A short path: the embedded database's Unix socket lives inside the data directory.
    const scratch = mkdtempSync(join(tmpdir(), 'vat-template-'));
    try {
      const dataDir = join(scratch, 'data');
      const config = loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
      const built = await build('all', config, pino({ level: 'warn' }, pino.destination(2)));
      await built.stop();
      if (!existsSync(join(dataDir, 'pg', 'PG_VERSION'))) throw new Error('the first start left no database behind');
      cpSync(join(dataDir, 'pg'), pgDir, { recursive: true });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
  pruneSeededTemplates(dir);
  return { outcome, dir };
}
