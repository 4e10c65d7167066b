import { readFileSync, statSync } from 'node:fs';
import type { ServiceName } from '@vat/platform/config';
import type { CsvDelimiter } from '@vat/platform/csv-reader';
import { adminArgs, config, database, need, out, runCli } from './admin-cli';
import { keyCommand } from './admin-keys';
import { UsageError } from './usage';

/*
 * The admin CLI. Each command imports what it runs when it runs (`ecb import` loads the calculation service's ORM and
 * importer, not the services or the HTTP gateway): a command costs its own modules only. The key commands are also a
 * bundle of their own (./admin-keys-main; ./admin-cli says which runs).
 */

/** `--delimiter`: one of the CSV separators (`tab` or `\t` for a tab). */
async function delimiterFlag(value: string | undefined): Promise<CsvDelimiter | undefined> {
  if (value === undefined) return undefined;
  const { CSV_DELIMITERS } = await import('@vat/platform/csv-reader');
  const d = value === 'tab' ? '\t' : value;
  if (!(CSV_DELIMITERS as readonly string[]).includes(d)) throw new UsageError(`--delimiter must be one of , ; tab |`);
  return d as CsvDelimiter;
}

/** The calculation service's ORM on the command's database (migrated first when `migrated`). */
async function withCalculation<T>(migrated: boolean, fn: (pool: import('pg').Pool) => Promise<T>): Promise<T> {
  const db = await database(await config());
  const [{ createOrm, migrate, ormPool }, { loadModule }] = await Promise.all([import('@vat/platform/db'), import('./module-loader')]);
  const mod = await loadModule('calculation');
  const orm = await createOrm({ clientUrl: db.url, schema: mod.schema, entities: mod.entities, migrations: mod.migrations, migrationsPath: mod.migrationsPath, poolMax: 2 });
  try {
    if (migrated) await migrate(orm, db.url, mod.schema);
    return await fn(await ormPool(orm));
  } finally {
    await orm.close();
    await db.close();
  }
}

function intFlag(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,6}$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`--${flag} must be an integer from ${min} to ${max}`);
  return Number(value);
}

async function main(argv: string[]): Promise<number> {
  const args = adminArgs(argv);
  const { values, positionals } = args;
  const [group, action, arg] = positionals;
  const keys = await keyCommand(args, async (url) => (await import('@vat/gateway/orm')).migrateGateway(url));
  if (keys !== undefined) return keys;
  if (group === 'ecb' && action === 'import') {
    if (!arg) throw new UsageError('missing <file>');
    statSync(arg);
    const { importEcbFile } = await import('@vat/calculation/reference/ecb-import');
    const result = await withCalculation(true, (pool) => importEcbFile(pool, arg, readFileSync(arg, 'utf8'), (done, total) => process.stderr.write(`\rimported ${done}/${total} rates`)));
    process.stderr.write('\n');
    out(result);
    return 0;
  }
  if (group === 'rates' && action === 'approve') {
    const reviewer = need(values.reviewer, 'reviewer');
    const { approveCurrentRateRelease } = await import('@vat/calculation/reference/approve');
    out(await withCalculation(false, (pool) => approveCurrentRateRelease(pool, reviewer, new Date())));
    return 0;
  }
  if (group === 'supply' && action === 'import') {
    const account = need(values.account, 'account');
    if (!arg || positionals.length > 3) throw new UsageError('give exactly one <file.csv|file.ndjson>');
    const { formatOf } = await import('./supply-import-records');
    const format = values.format ?? formatOf(arg);
    if (format !== 'csv' && format !== 'ndjson') throw new UsageError('the file must end in .csv, .ndjson or .jsonl, or give --format csv|ndjson');
    const concurrency = intFlag(values.concurrency, 'concurrency', 1, 16);
    const retrySeconds = intFlag(values['retry-seconds'], 'retry-seconds', 0, 86_400);
    if (!statSync(arg).isFile()) throw new Error(`${arg} is not a file`);
    const cfg = await config();
    const delimiter = await delimiterFlag(values.delimiter);
    // Distributed: an explicit LEDGER_URL reaches the ledger process; otherwise the ledger runs in-process.
    const ledgerUrl = process.env.LEDGER_URL ? cfg.serviceUrls.ledger : undefined;
    const { runSupplyImport } = await import('./supply-import');
    const summary = await runSupplyImport({ account, file: arg, format, delimiter, concurrency, retrySeconds }, cfg, ledgerUrl);
    out(summary);
    return summary.complete && summary.rejected === 0 && summary.failed === 0 ? 0 : 1;
  }
  if (group === 'backup' || group === 'restore') {
    if (!action || positionals.length > 2) throw new UsageError(`give exactly one <file> to ${group}`);
    const { backupDataDir, restoreDataDir } = await import('./backup');
    if (group === 'backup') out(await backupDataDir(await config(), action, { includeKey: values['include-key'] ?? false }));
    else out(await restoreDataDir(await config(), action, { keyFile: values['key-file'] }));
    return 0;
  }
  if (group === 'migrations' && action === 'create') {
    if (!arg) throw new UsageError('missing <service|gateway>');
    const cfg = await config();
    const server = cfg.databaseUrl ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
    const { SERVICE_NAMES } = await import('@vat/platform/config');
    let target;
    if (arg === 'gateway') {
      const [{ gatewayEntities }, gm] = await Promise.all([import('@vat/gateway/entities'), import('@vat/gateway/migrations/index')]);
      target = { schema: 'gateway', entities: gatewayEntities, migrations: gm.migrations, migrationsPath: gm.MIGRATIONS_PATH };
    } else if ((SERVICE_NAMES as readonly string[]).includes(arg)) {
      target = await (await import('./module-loader')).loadModule(arg as ServiceName);
    }
    if (!target) throw new UsageError(`unknown service ${arg}`);
    const { createMigration } = await import('./migrations-tool');
    const file = await createMigration(target, server);
    out({ service: arg, created: file ?? null });
    return 0;
  }
  const { runClassificationCommand } = await import('./classification-admin');
  const classification = await runClassificationCommand(group, action, values, await config());
  if (classification !== undefined) {
    out(classification);
    return 0;
  }
  throw new UsageError(`unknown command: ${positionals.join(' ') || '(none)'}`);
}

await runCli(main);
