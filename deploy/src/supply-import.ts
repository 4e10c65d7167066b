import { readOrCreateKeyFile } from '@vat/platform/crypto';
import pino from 'pino';
import type { CsvDelimiter } from '@vat/platform/csv-reader';
import { createClient, createRouterTransport, type Client } from '@connectrpc/connect';
import { Http2SessionManager } from '@connectrpc/connect-node';
import { createH2Transport } from '@vat/platform/h2-transport';
import { SupplyLedgerService } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { InProcessBus } from '@vat/platform/bus';
import { internalTokenInterceptor } from '@vat/platform/clients';
import type { Config, ServiceName } from '@vat/platform/config';
import { createLogger } from '@vat/platform/logger';
import { principalHeaders } from '@vat/platform/principal';
import { openKeyAdmin } from '@vat/gateway/key-admin';
import { migrateGateway } from '@vat/gateway/orm';
import { databaseForCli } from './database-for-cli';
import { inProcessTransports, serviceInterceptors, startService, type RunningService } from './compose';
import { MODULES } from './modules';
import { importSupplyEvents, type ImportStats, type Rejection } from './supply-import-pipeline';
import { progressReporter } from './supply-import-progress';
import type { ImportFormat } from './supply-import-records';

export type SupplyImportArgs = { account: string; file: string; format: ImportFormat; delimiter?: CsvDelimiter; concurrency?: number; retrySeconds?: number };

type SupplyImportSummary = {
  account: string;
  file: string;
  format: ImportFormat;
  ledger: string;
  complete: boolean;
  lines_read: number;
  committed: number;
  skipped: number;
  rejected: number;
  failed: number;
  rejections: Rejection[];
  rejections_listed: number;
  retries: number;
  elapsed_seconds: number;
  lines_per_second: number;
  error: string | null;
};

type LedgerAccess = { client: Client<typeof SupplyLedgerService>; where: string; close(): Promise<void> };

/**
 * The ledger process over HTTP/2 Connect with the internal token (distributed mode), through the deployed
 * processes' transport (no compression offered: connect-node's default offered gzip, and the ledger compressed
 * every batch's answer).
 */
function networkLedger(url: string, config: Config): LedgerAccess {
  const sessions = new Http2SessionManager(url);
  const transport = createH2Transport({ baseUrl: url, sessionManager: sessions, interceptors: [internalTokenInterceptor(config.internalToken)] });
  return { client: createClient(SupplyLedgerService, transport), where: url, close: async () => sessions.abort() };
}

/**
 * The ledger module run in this process on the database, without its relay (the running `npm start` or the
 * ledger processes publish the outbox; otherwise it waits for the next start). Its services call no other.
 */
async function inProcessLedger(config: Config, databaseUrl: string, poolMax: number): Promise<LedgerAccess> {
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, 'admin', pino.destination(2));
  const bus = new InProcessBus();
  const running: RunningService[] = [];
  const transportOf = (routes: RunningService['routes']) =>
    createRouterTransport(routes, { router: { interceptors: serviceInterceptors(config) }, transport: { interceptors: [internalTokenInterceptor(config.internalToken)] } });
  const transportFor = inProcessTransports(running, transportOf);
  const start = async (name: ServiceName) => {
    const s = await startService(MODULES[name], config, databaseUrl, bus, log, poolMax, transportFor);
    running.push(s);
    return s;
  };
  try {
    const ledger = await start('ledger');
    await completeReferenceData(ledger, start, bus);
    return {
      client: createClient(SupplyLedgerService, transportOf(ledger.routes)),
      where: 'in-process',
      close: () => stopAll(running, bus),
    };
  } catch (err) {
    await stopAll(running, bus);
    throw err;
  }
}

async function stopAll(running: RunningService[], bus: InProcessBus): Promise<void> {
  for (const s of running.reverse()) await s.stop().catch(() => undefined);
  await bus.close();
}

/** How long the import waits for calculation's answer before it gives up (the answer takes well under a second). */
const REFERENCE_WAIT_MS = 30_000;

/**
 * A database whose ledger projection of calculation's reference data is incomplete (a fresh DATA_DIR imported
 * into before the first `npm start`, or a NATS stream lost) would refuse every commit (503
 * reference_data_unavailable). The ledger then gets it the way it does in a running system: the calculation module
 * is started beside it on this process's bus, the bus is opened, and the ledger asks (`ReferenceDataRequested`);
 * calculation answers on the bus, straight to the ledger's consumer. No service's table is read from here, and no
 * outbox is relayed: what the services' outboxes hold stays for the next start's relays.
 */
async function completeReferenceData(ledger: RunningService, start: (name: ServiceName) => Promise<RunningService>, bus: InProcessBus): Promise<void> {
  if ((await ledger.readiness()).ready) return;
  await start('calculation');
  bus.open();
  ledger.started();
  const until = Date.now() + REFERENCE_WAIT_MS;
  for (;;) {
    const r = await ledger.readiness();
    if (r.ready) return;
    if (Date.now() > until) throw new Error(`the ledger is not ready: ${r.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`).join('; ')}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

function summaryOf(args: SupplyImportArgs, where: string, stats: ImportStats, rejections: Rejection[], error: string | undefined): SupplyImportSummary {
  return {
    account: args.account,
    file: args.file,
    format: args.format,
    ledger: where,
    complete: error === undefined,
    lines_read: stats.read,
    committed: stats.committed,
    skipped: stats.skipped,
    rejected: stats.rejected,
    failed: stats.failed,
    rejections,
    rejections_listed: rejections.length,
    retries: stats.retries,
    elapsed_seconds: Math.round(stats.elapsedMs) / 1000,
    lines_per_second: stats.elapsedMs > 0 ? Math.round((stats.read * 1000) / stats.elapsedMs) : 0,
    error: error ?? null,
  };
}

/**
 * `admin supply import`: commits a CSV or NDJSON file for an account through the ledger RPC,
 * over HTTP/2 when `ledgerUrl` is given (distributed), else with the ledger module in-process.
 */
export async function runSupplyImport(args: SupplyImportArgs, config: Config, ledgerUrl: string | undefined): Promise<SupplyImportSummary> {
  const db = await databaseForCli(config);
  const embedded = !config.databaseUrl;
  const keyAdmin = await openKeyAdmin(db.url, migrateGateway);
  let ledger: LedgerAccess | undefined;
  try {
    const account = await keyAdmin.keys.findAccount(args.account);
    if (!account) throw new Error(`no account named "${args.account}" (create it with: admin keys create --account ${args.account} --scope full)`);
    // The in-process ledger seals customers' VAT numbers: DATA_ENCRYPTION_KEY, or the embedded mode's key file in DATA_DIR.
    const ledgerConfig = config.dataEncryptionKey || !embedded ? config : { ...config, dataEncryptionKey: readOrCreateKeyFile(config.dataDir).key };
    ledger = ledgerUrl ? networkLedger(ledgerUrl, config) : await inProcessLedger(ledgerConfig, db.url, embedded ? 2 : 4);
    const client = ledger.client;
    const call = { headers: principalHeaders({ accountId: account.id, apiKeyId: 0n, keyKind: 'v2', scope: 'full' }), timeoutMs: 60_000 };
    const progress = progressReporter(process.stderr);
    const result = await importSupplyEvents({
      file: args.file,
      format: args.format,
      delimiter: args.delimiter,
      concurrency: args.concurrency,
      retryForMs: (args.retrySeconds ?? 120) * 1000,
      commit: async (events) => (await client.commitSupplyEvents({ events }, call)).items,
      validate: async (events) => {
        await client.commitSupplyEvents({ events, validateOnly: true }, call);
      },
      integrationOwned: (id) => keyAdmin.keys.integrationOwnedBy(id, account.id),
      onProgress: (s) => progress.update(s),
    });
    progress.done(result.stats);
    return summaryOf(args, ledger.where, result.stats, result.rejections, result.error);
  } finally {
    await ledger?.close();
    await keyAdmin.close();
    await db.close();
  }
}
