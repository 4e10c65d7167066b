import type { Config } from '@vat/platform/config';
import { runningEmbeddedUrl, startEmbeddedPostgres } from '@vat/platform/embedded-pg';

/**
 * The database an operator command should use: DATABASE_URL; else the wire address advertised by a
 * running `npm start` on DATA_DIR; else the embedded database opened directly (npm start not running).
 */
export async function databaseForCli(config: Config): Promise<{ url: string; close(): Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, close: async () => {} };
  const running = runningEmbeddedUrl(config.dataDir);
  if (running) return { url: running, close: async () => {} };
  const embedded = await startEmbeddedPostgres(config.dataDir);
  return { url: embedded.url, close: () => embedded.stop() };
}
