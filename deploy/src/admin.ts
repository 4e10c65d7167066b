import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Config, ServiceName } from '@vat/platform/config';
import type { CsvDelimiter } from '@vat/platform/csv-reader';
import type { KeyStore } from '@vat/gateway/keys';
import { UsageError } from './usage';

/*
 * The admin CLI. Each command imports what it runs when it runs (`keys create` loads the configuration, the
 * gateway's ORM and key store, not the services or the HTTP gateway): a command costs its own modules only.
 */

const USAGE = `usage: npm run --silent admin -- <command>
  keys create --account <name> --scope <full|read-only|calculate-only|classification-resolve|classification-write> [--label <text>]
  keys create --account <name> --legacy
  keys list --account <name>
  keys revoke --id <id>
  integrations create --account <name> --name <name>
  ecb import <file.csv|file.xml>
  rates approve --reviewer <name>        (marks the loaded VAT rate release as reviewed)
  supply import --account <name> [--format csv|ndjson] [--delimiter ','|';'|tab|'|'] [--concurrency <1-16>] [--retry-seconds <n>] <file.csv|file.ndjson>
                                         (commits supply events in batches; a re-run skips what is committed;
                                          the CSV separator is the one the header uses unless --delimiter is given)
  migrations create <service|gateway>    (developer tool; needs a PostgreSQL server, DATABASE_URL or 127.0.0.1:5432)
  operators create --name <name>          (enrols a catalog operator; prints the TOTP otpauth URI once)
  catalogs import --scheme cn|cpa --edition <2021…2026|2.1|2.2> --file <path> --legal-from <date> [--legal-to <date>]
                  --act "<legal act>" --source-url <https url> --operator <name>   (a candidate under review)
  catalogs approve --id <candidate> --operator <another operator> --totp <current code>
  catalogs list [--scheme cn|cpa]
  coverage import --file <classification_coverage_v1.json> --operator <name>
  coverage publish --id <manifest> --operator <another operator> --totp <current code>
  coverage list
  treatments import --file <governed-treatment/v2 json> --operator <name>   (a candidate; never active by itself)
  treatments activate --id <candidate> --operator <another operator> --totp <current code>
  treatments list
  audit list [--action <action>] [--limit <1-10000>]
  backup <file> [--include-key]          (npm start's DATA_DIR, also while it runs; the key only with --include-key)
  restore <file> [--key-file <path>]     (into an empty DATA_DIR; the key from --key-file, the backup or DATA_ENCRYPTION_KEY)`;

function out(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function need(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`missing --${flag}`);
  return value;
}

/** `--delimiter`: one of the CSV separators (`tab` or `\t` for a tab). */
async function delimiterFlag(value: string | undefined): Promise<CsvDelimiter | undefined> {
  if (value === undefined) return undefined;
  const { CSV_DELIMITERS } = await import('@vat/platform/csv-reader');
  const d = value === 'tab' ? '\t' : value;
  if (!(CSV_DELIMITERS as readonly string[]).includes(d)) throw new UsageError(`--delimiter must be one of , ; tab |`);
  return d as CsvDelimiter;
}

async function config(): Promise<Config> {
  return (await import('@vat/platform/config')).loadConfig();
}

async function database(cfg: Config) {
  return (await import('./database-for-cli')).databaseForCli(cfg);
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

async function withKeys<T>(fn: (keys: KeyStore) => Promise<T>): Promise<T> {
  const db = await database(await config());
  const [{ openGatewayOrm }, { KeyStore }] = await Promise.all([import('@vat/gateway/orm'), import('@vat/gateway/keys')]);
  const orm = await openGatewayOrm(db.url, 2);
  try {
    return await fn(new KeyStore(orm));
  } finally {
    await orm.close();
    await db.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      account: { type: 'string' },
      scope: { type: 'string' },
      legacy: { type: 'boolean' },
      label: { type: 'string' },
      id: { type: 'string' },
      name: { type: 'string' },
      reviewer: { type: 'string' },
      format: { type: 'string' },
      concurrency: { type: 'string' },
      delimiter: { type: 'string' },
      'retry-seconds': { type: 'string' },
      scheme: { type: 'string' },
      edition: { type: 'string' },
      file: { type: 'string' },
      'legal-from': { type: 'string' },
      'legal-to': { type: 'string' },
      act: { type: 'string' },
      'source-url': { type: 'string' },
      operator: { type: 'string' },
      totp: { type: 'string' },
      action: { type: 'string' },
      limit: { type: 'string' },
      'include-key': { type: 'boolean' },
      'key-file': { type: 'string' },
    },
  });
  const [group, action, arg] = positionals;
  if (group === 'keys' && action === 'create') {
    const account = need(values.account, 'account');
    if (!values.legacy) need(values.scope, 'scope');
    out(await withKeys((k) => k.create(account, values.scope ?? '', values.legacy ?? false, values.label)));
    return 0;
  }
  if (group === 'keys' && action === 'list') {
    const account = need(values.account, 'account');
    out(await withKeys((k) => k.list(account)));
    return 0;
  }
  if (group === 'keys' && action === 'revoke') {
    const id = need(values.id, 'id');
    if (!/^\d{1,18}$/.test(id)) throw new UsageError('--id must be a key id');
    const ok = await withKeys((k) => k.revoke(BigInt(id)));
    if (!ok) {
      process.stderr.write(`no key with id ${id}\n`);
      return 1;
    }
    out({ id, revoked: true });
    return 0;
  }
  if (group === 'integrations' && action === 'create') {
    const account = need(values.account, 'account');
    const name = need(values.name, 'name');
    out(await withKeys((k) => k.createIntegration(account, name)));
    return 0;
  }
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

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
