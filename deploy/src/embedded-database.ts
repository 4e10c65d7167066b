import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '@vat/platform/config';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@vat/platform/embedded-pg';
import { templatesFor } from './seeded-template';

export type StartedEmbedded = {
  embedded: EmbeddedPostgres;
  /** How this start created DATA_DIR's database, when it did: from the seeded template, the initdb template, or initdb. */
  created?: 'seeded template' | 'initdb template' | 'initdb';
  /** Wall-clock ms from the request to the database answering. */
  ms: number;
  /** Opened by npm start's first step (deploy/src/prestart.ts), before the main code loaded. */
  early?: boolean;
};

/**
 * Opens the embedded database of `dataDir` on its own thread, advertised in runtime.json for the admin CLI. A new
 * DATA_DIR starts as a copy of the seeded template when the installed one matches these sources. The thread is
 * started before this returns (nothing is awaited first): the caller goes on loading code meanwhile.
 */
export function openEmbeddedDatabase(dataDir: string): Promise<StartedEmbedded> {
  const t0 = performance.now();
  const fresh = templatesFor(dataDir);
  return startEmbeddedPostgres(dataDir, { advertise: true, templates: fresh?.templates }).then((embedded) => {
    const created = !fresh ? undefined : !embedded.createdFrom ? 'initdb' : fresh.seeded && embedded.createdFrom === fresh.templates[0] ? 'seeded template' : 'initdb template';
    return { embedded, ...(created ? { created } : {}), ms: Math.round(performance.now() - t0) };
  });
}

/**
 * The embedded database of DATA_DIR for `npm start`, configured: the one `early` opened already when it is
 * of the same directory (deploy/src/prestart.ts), else a new one (and `early`, of another directory, stopped).
 * Should the database's thread end later on its own, the process logs it and exits 1 (every query would fail
 * from then on; a supervisor restarts it).
 */
export function startEmbeddedDatabase(config: Config, log: Logger, early?: { dataDir: string; started: Promise<StartedEmbedded> }): Promise<StartedEmbedded> {
  let starting: Promise<StartedEmbedded>;
  if (early && resolve(early.dataDir) === resolve(config.dataDir)) starting = early.started.then((s) => ({ ...s, early: true }));
  else {
    if (early) void early.started.then((s) => s.embedded.stop(), () => undefined);
    starting = openEmbeddedDatabase(config.dataDir);
  }
  return starting.then(async (started) => {
    started.embedded.onLost((err) => {
      log.fatal({ err }, 'the embedded database stopped; exiting');
      process.exit(1);
    });
    await started.embedded.setSessionWaitMs(config.databaseWaitMs);
    return started;
  });
}
