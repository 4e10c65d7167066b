import type { Config } from '@vat/platform/config';
import { runningEmbeddedUrl } from '@vat/platform/embedded-pg-runtime';
import { templatesFor } from './seeded-template';

/**
 * The database an operator command should use: DATABASE_URL; else the Unix socket advertised in
 * DATA_DIR/runtime.json by a running `npm start`; else the embedded database opened directly (npm start
 * not running; while the command runs, DATA_DIR is locked against a concurrent start). A new DATA_DIR
 * starts from the seeded template, as `npm start` would.
 */
export async function databaseForCli(config: Config): Promise<{ url: string; close(): Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, close: async () => {} };
  const running = await runningEmbeddedUrl(config.dataDir);
  if (running) return { url: running, close: async () => {} };
  const { startEmbeddedPostgres } = await import('@vat/platform/embedded-pg');
  const embedded = await startEmbeddedPostgres(config.dataDir, { templates: templatesFor(config.dataDir)?.templates });
  return { url: embedded.url, close: () => embedded.stop() };
}
