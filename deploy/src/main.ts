import { loadConfig } from '@vat/platform/config';
import { createLogger } from '@vat/platform/logger';
import { isMode } from './mode';
import { startEmbeddedDatabase } from './embedded-database';
import { takePrestarted } from './prestart';
import { boundHeapGrowth } from '@vat/platform/heap-growth';

// Before the process allocates much: V8's heap growing factor bounded (platform/src/heap-growth.ts). Not later: a start
// with V8's own factor has three fewer full collections (≈ 30-50 ms of a restart), but the server it leaves spends
// about half as much CPU again per persisted calculation for the rest of its life, even with the bound set once it
// listens (0.36-0.40 against 0.20-0.28 ms per request; docs/benchmarks.md, twentieth session).
boundHeapGrowth();

const SHUTDOWN_GRACE_MS = 10_000;
/** How long after the port opens the start's garbage is collected (see below). */
const START_GARBAGE_DELAY_MS = 500;
const mode = process.argv[2] ?? 'all';
if (!isMode(mode)) {
  console.error(`usage: main.ts all|gateway|calculation|classification|compliance-reports|thresholds|ledger (got "${mode}")`);
  process.exit(2);
}
const config = loadConfig();
const log = createLogger(config.logLevel, `vat-${mode}`);
if (config.tracing) {
  // Loaded only when on; before anything is built, so every pool and server is traced from the start.
  const { startTracing } = await import('@vat/platform/telemetry');
  startTracing(`vat-${mode}`);
}
// The embedded database opens on its own thread (since deploy/src/prestart.ts, or from here on) while this
// thread loads the rest of the code (imported below, not at the top, so that loading it comes after this).
const early = takePrestarted();
const database = mode === 'all' && !config.databaseUrl ? startEmbeddedDatabase(config, log, early) : undefined;
if (early && !database) void early.started.then((s) => s.embedded.stop(), () => undefined);
database?.catch(() => undefined);
try {
  const { build } = await import('./build');
  const { collectStartGarbage } = await import('@vat/platform/start-garbage');
  const built = await build(mode, config, log, database);
  const address = await built.listen();
  log.info({ mode, address }, 'listening');
  // The start's garbage is collected a moment after the port opens, not before nor right at it: the first
  // requests (a supervisor's /ready, clients that waited for the port) are answered without waiting for the one
  // collection (30-40 ms of a ≈ 1 s restart); a request that comes in during it waits as it would for any other.
  setTimeout(() => {
    const heapBefore = process.memoryUsage().heapUsed;
    const gcMs = collectStartGarbage();
    log.info({ ms: gcMs === undefined ? undefined : Math.round(gcMs), heapUsedMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20), freedMb: Math.round((heapBefore - process.memoryUsage().heapUsed) / 2 ** 20) }, "start's garbage collected");
  }, START_GARBAGE_DELAY_MS).unref();
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    // In-flight requests get SHUTDOWN_GRACE_MS to finish; a client that stalls a download cannot keep
    // the process alive past that (it exits 1 so a supervisor sees the forced stop).
    const force = setTimeout(() => {
      log.warn({ graceMs: SHUTDOWN_GRACE_MS }, 'in-flight requests did not finish; stopping now');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    await built.stop();
    if (config.tracing) await (await import('@vat/platform/telemetry')).stopTracing().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
} catch (err) {
  log.fatal({ err }, 'failed to start');
  process.exit(1);
}
