import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { loadConfig, type Config } from '@vat/platform/config';
import { build, type Built } from '@vat/deploy/build';
import { freshDatabase } from './env';

export type Harness = {
  built: Built;
  app: FastifyInstance;
  config: Config;
  databaseUrl: string;
  /** Creates an account (if new) and a key; returns the plaintext key and its id. */
  key(account: string, scope: string, legacy?: boolean): Promise<{ key: string; id: string; accountId: string }>;
  inject(opts: InjectOptions): Promise<Awaited<ReturnType<FastifyInstance['inject']>>>;
  close(): Promise<void>;
};

/**
 * Everything in one process, like `npm start`: on a fresh PostgreSQL database by default, or on
 * embedded PGlite in a temporary data directory with `{ embedded: true }`.
 */
export async function startHarness(opts: { embedded?: boolean; env?: Record<string, string> } = {}): Promise<Harness> {
  const db = opts.embedded ? undefined : await freshDatabase();
  const dataDir = opts.embedded ? mkdtempSync(join(tmpdir(), 'vat-embedded-')) : undefined;
  // The background overdue check stays off unless a test asks for it: tests drive it with their own clock.
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', OUTBOX_POLL_MS: '50', OVERDUE_CHECK_INTERVAL_MS: '0', ...(db ? { DATABASE_URL: db.url } : { DATA_DIR: dataDir }), ...opts.env });
  const built = await build('all', config, pino({ level: 'silent' }));
  const app = built.gateway!.app;
  await app.ready();
  return {
    built,
    app,
    config,
    databaseUrl: built.databaseUrl,
    async key(account, scope, legacy = false) {
      const k = await built.gateway!.keys.create(account, scope, legacy);
      return { key: k.key, id: k.id, accountId: k.account_id };
    },
    inject: async (o) => app.inject(o),
    async close() {
      await built.stop();
      await db?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
