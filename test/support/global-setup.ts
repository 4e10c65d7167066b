import { ensureBundles } from '../../deploy/bundle.mjs';
import { ensureTemplate } from './template';
import { PG_SERVER_URL, requireBackends } from './env';

/**
 * Builds the compiled entry points when deploy/dist is not current (the processes the tests spawn run them,
 * as `npm start` does), and the migrated, seeded template database once per run (when PostgreSQL is there).
 */
export default async function setup(): Promise<void> {
  await ensureBundles();
  const pgUp = await requireBackends(['postgres']).catch((e: Error) => {
    throw e;
  });
  if (pgUp.ok) await ensureTemplate(PG_SERVER_URL);
}
