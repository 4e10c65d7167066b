import { applyReferenceData, REFERENCE_SUBJECTS } from '@vat/platform/reference-projection';
import { inTransaction } from '@vat/platform/transaction';
import { readOrCreateKeyFile } from '@vat/platform/crypto';
import pino from 'pino';
import type { CsvDelimiter } from '@vat/platform/csv-reader';
import { createClient, createRouterTransport, type Client, type Transport } from '@connectrpc/connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { SupplyLedgerService } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { InProcessBus } from '@vat/platform/bus';
import { internalTokenInterceptor } from '@vat/platform/clients';
import type { Config, ServiceName } from '@vat/platform/config';
import { createLogger } from '@vat/platform/logger';
import { principalHeaders } from '@vat/platform/principal';
import { openGatewayOrm } from '@vat/gateway/orm';
import { KeyStore } from '@vat/gateway/keys';
import { databaseForCli } from './database-for-cli';
import { serviceInterceptors, startService, type RunningService } from './compose';
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

/** A transport whose target is built (asynchronously) on the first call. */
function deferredTransport(resolve: () => Promise<Transport>): Transport {
  let t: Promise<Transport> | undefined;
  const get = () => (t ??= resolve());
  return {
    unary: async (...args) => (await get()).unary(...args),
    stream: async (...args) => (await get()).stream(...args),
  };
}

/** The ledger process over HTTP/2 Connect with the internal token (distributed mode). */
function networkLedger(url: string, config: Config): LedgerAccess {
  const sessions = new Http2SessionManager(url);
  const transport = createConnectTransport({ baseUrl: url, httpVersion: '2', sessionManager: sessions, interceptors: [internalTokenInterceptor(config.internalToken)] });
  return { client: createClient(SupplyLedgerService, transport), where: url, close: async () => sessions.abort() };
}

/**
 * The ledger module run in this process on the database, without its relay (the running
 * `npm start` or the ledger processes publish the outbox; otherwise it waits for the next start).
 * The calculation module is started only if an event links a calculation.
 */
async function inProcessLedger(config: Config, databaseUrl: string, poolMax: number): Promise<LedgerAccess> {
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, 'admin', pino.destination(2));
  const bus = new InProcessBus();
  const started = new Map<ServiceName, Promise<RunningService>>();
  const transportOf = (svc: RunningService) =>
    createRouterTransport(svc.routes, { router: { interceptors: serviceInterceptors(config) }, transport: { interceptors: [internalTokenInterceptor(config.internalToken)] } });
  const transportFor = (name: ServiceName) => deferredTransport(async () => transportOf(await start(name)));
  const start = (name: ServiceName): Promise<RunningService> => {
    let s = started.get(name);
    if (!s) started.set(name, (s = startService(MODULES[name], config, databaseUrl, bus, log, poolMax, transportFor)));
    return s;
  };
  const ledger = await start('ledger');
  await bootstrapReferenceData(ledger, start);
  return {
    client: createClient(SupplyLedgerService, transportOf(ledger)),
    where: 'in-process',
    async close() {
      for (const s of started.values()) await (await s.catch(() => undefined))?.stop().catch(() => undefined);
      await bus.close();
    },
  };
}

/**
 * A database where no calculation process ever ran beside a ledger (a fresh DATA_DIR imported into before the
 * first `npm start`) has an empty ledger projection of calculation's reference data, so every commit would be
 * refused (503 reference_data_unavailable). Calculation is then started here (its start writes its reference
 * publications to its outbox) and the ledger's projection is filled from those rows directly: the rows stay
 * unpublished for the relay of the next start, so no other consumer misses them.
 */
async function bootstrapReferenceData(ledger: RunningService, start: (name: ServiceName) => Promise<RunningService>): Promise<void> {
  const pool = ledger.deps.pool;
  if ((await pool.query('select 1 from "ledger".rate_release_projection limit 1')).rowCount) return;
  const calculation = await start('calculation');
  const { rows } = await calculation.deps.pool.query<{ id: string; subject: string; payload: Buffer }>(
    'select id, subject, payload from "calculation".outbox where subject = any($1::text[]) order by created_at, id',
    [REFERENCE_SUBJECTS],
  );
  await inTransaction(pool, (client) => applyReferenceData(client, 'ledger', rows.map((r) => ({ id: r.id, subject: r.subject, data: r.payload })), new Date()));
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
  const orm = await openGatewayOrm(db.url, 2);
  let ledger: LedgerAccess | undefined;
  try {
    const keys = new KeyStore(orm);
    const account = await keys.findAccount(args.account);
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
      integrationOwned: (id) => keys.integrationOwnedBy(id, account.id),
      onProgress: (s) => progress.update(s),
    });
    progress.done(result.stats);
    return summaryOf(args, ledger.where, result.stats, result.rejections, result.error);
  } finally {
    await ledger?.close();
    await orm.close();
    await db.close();
  }
}
