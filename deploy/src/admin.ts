import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig, SERVICE_NAMES } from '@vat/platform/config';
import { createOrm, migrate, ormPool } from '@vat/platform/db';
import { openGatewayOrm } from '@vat/gateway/start';
import { KeyStore } from '@vat/gateway/keys';
import { gatewayEntities } from '@vat/gateway/entities';
import { migrations as gatewayMigrations, MIGRATIONS_PATH as GATEWAY_MIGRATIONS_PATH } from '@vat/gateway/migrations/index';
import { importEcbFile } from '@vat/calculation/reference/ecb-import';
import { approveCurrentRateRelease } from '@vat/calculation/reference/approve';
import { backupDataDir, restoreDataDir } from './backup';
import { databaseForCli } from './database-for-cli';
import { ClassificationUsage, runClassificationCommand } from './classification-admin';
import { runSupplyImport } from './supply-import';
import { formatOf, type ImportFormat } from './supply-import-records';
import { CSV_DELIMITERS, type CsvDelimiter } from '@vat/platform/csv-reader';
import { createMigration } from './migrations-tool';
import { MODULES } from './modules';

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

class UsageError extends Error {}

function out(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function need(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`missing --${flag}`);
  return value;
}

/** `--delimiter`: one of the CSV separators (`tab` or `\t` for a tab). */
function delimiterFlag(value: string | undefined): CsvDelimiter | undefined {
  if (value === undefined) return undefined;
  const d = value === 'tab' ? '\t' : value;
  if (!(CSV_DELIMITERS as readonly string[]).includes(d)) throw new UsageError(`--delimiter must be one of , ; tab |`);
  return d as CsvDelimiter;
}

function intFlag(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,6}$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`--${flag} must be an integer from ${min} to ${max}`);
  return Number(value);
}

async function withKeys<T>(fn: (keys: KeyStore) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const db = await databaseForCli(config);
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
    const config = loadConfig();
    const db = await databaseForCli(config);
    const mod = MODULES.calculation;
    const orm = await createOrm({ clientUrl: db.url, schema: mod.schema, entities: mod.entities, migrations: mod.migrations, migrationsPath: mod.migrationsPath, poolMax: 2 });
    try {
      await migrate(orm, db.url, mod.schema);
      const result = await importEcbFile(await ormPool(orm), arg, readFileSync(arg, 'utf8'), (done, total) => process.stderr.write(`\rimported ${done}/${total} rates`));
      process.stderr.write('\n');
      out(result);
    } finally {
      await orm.close();
      await db.close();
    }
    return 0;
  }
  if (group === 'rates' && action === 'approve') {
    const reviewer = need(values.reviewer, 'reviewer');
    const config = loadConfig();
    const db = await databaseForCli(config);
    const mod = MODULES.calculation;
    const orm = await createOrm({ clientUrl: db.url, schema: mod.schema, entities: mod.entities, migrations: mod.migrations, migrationsPath: mod.migrationsPath, poolMax: 2 });
    try {
      out(await approveCurrentRateRelease(await ormPool(orm), reviewer, new Date()));
    } finally {
      await orm.close();
      await db.close();
    }
    return 0;
  }
  if (group === 'supply' && action === 'import') {
    const account = need(values.account, 'account');
    if (!arg || positionals.length > 3) throw new UsageError('give exactly one <file.csv|file.ndjson>');
    const format = values.format ?? formatOf(arg);
    if (format !== 'csv' && format !== 'ndjson') throw new UsageError('the file must end in .csv, .ndjson or .jsonl, or give --format csv|ndjson');
    const concurrency = intFlag(values.concurrency, 'concurrency', 1, 16);
    const retrySeconds = intFlag(values['retry-seconds'], 'retry-seconds', 0, 86_400);
    if (!statSync(arg).isFile()) throw new Error(`${arg} is not a file`);
    const config = loadConfig();
    // Distributed: an explicit LEDGER_URL reaches the ledger process; otherwise the ledger runs in-process.
    const ledgerUrl = process.env.LEDGER_URL ? config.serviceUrls.ledger : undefined;
    const summary = await runSupplyImport({ account, file: arg, format: format as ImportFormat, delimiter: delimiterFlag(values.delimiter), concurrency, retrySeconds }, config, ledgerUrl);
    out(summary);
    return summary.complete && summary.rejected === 0 && summary.failed === 0 ? 0 : 1;
  }
  if (group === 'backup' || group === 'restore') {
    if (!action || positionals.length > 2) throw new UsageError(`give exactly one <file> to ${group}`);
    if (group === 'backup') out(await backupDataDir(loadConfig(), action, { includeKey: values['include-key'] ?? false }));
    else out(await restoreDataDir(loadConfig(), action, { keyFile: values['key-file'] }));
    return 0;
  }
  if (group === 'migrations' && action === 'create') {
    if (!arg) throw new UsageError('missing <service|gateway>');
    const config = loadConfig();
    const server = config.databaseUrl ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
    const target = arg === 'gateway'
      ? { schema: 'gateway', entities: gatewayEntities, migrations: gatewayMigrations, migrationsPath: GATEWAY_MIGRATIONS_PATH }
      : (SERVICE_NAMES as readonly string[]).includes(arg) ? MODULES[arg as keyof typeof MODULES] : undefined;
    if (!target) throw new UsageError(`unknown service ${arg}`);
    const file = await createMigration(target, server);
    out({ service: arg, created: file ?? null });
    return 0;
  }
  const classification = await runClassificationCommand(group, action, values, loadConfig());
  if (classification !== undefined) {
    out(classification);
    return 0;
  }
  throw new UsageError(`unknown command: ${positionals.join(' ') || '(none)'}`);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError || err instanceof ClassificationUsage || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
