import { parseArgs } from 'node:util';
import type { Config } from '@vat/platform/config';
import { UsageError } from './usage';

/*
 * What both admin CLI bundles share: the usage, the flags and how a command's outcome becomes the exit code.
 * `deploy/bin/admin.mjs` runs the small bundle of the key commands (./admin-keys-main) for `keys …` and
 * `integrations …`, and the whole CLI (./admin) for every other command (it runs the key commands too).
 */

export const USAGE = `usage: npm run --silent admin -- <command>
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

export function out(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function need(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`missing --${flag}`);
  return value;
}

export async function config(): Promise<Config> {
  return (await import('@vat/platform/config')).loadConfig();
}

export async function database(cfg: Config) {
  return (await import('./database-for-cli')).databaseForCli(cfg);
}

/** The command line's flags and positionals (`<group> <action> [<arg>]`). */
export function adminArgs(argv: string[]) {
  return parseArgs({
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
}

export type AdminArgs = ReturnType<typeof adminArgs>;

/** Runs a CLI's `main` on the process's arguments and sets the exit code: 2 with the usage for a usage error, 1 for a failure. */
export async function runCli(main: (argv: string[]) => Promise<number>): Promise<void> {
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
}
