import { ensureTemplate } from './template';
import { PG_SERVER_URL, requireBackends } from './env';

/** Builds the migrated, seeded template database once per run (when PostgreSQL is there). */
export default async function setup(): Promise<void> {
  const pgUp = await requireBackends(['postgres']).catch((e: Error) => {
    throw e;
  });
  if (pgUp.ok) await ensureTemplate(PG_SERVER_URL);
}
