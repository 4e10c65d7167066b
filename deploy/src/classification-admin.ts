import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Config } from '@vat/platform/config';
import { FieldCipher, readOrCreateKeyFile, requireDataEncryptionKey } from '@vat/platform/crypto';
import { createOrm, migrate, ormPool } from '@vat/platform/db';
import { adminDeps, type AdminDeps } from '@vat/classification/admin/admin-deps';
import { approveCatalog, importCatalog, listCatalogs } from '@vat/classification/admin/catalogs';
import { importCoverage, listCoverage, publishCoverage } from '@vat/classification/admin/coverage';
import { createOperator } from '@vat/classification/admin/operators';
import { seedVatRates } from '@vat/calculation/reference/seed';
import { TreatmentReleaseRepository } from '@vat/calculation/repositories/treatment-releases';
import { databaseForCli } from './database-for-cli';
import { activateTreatmentRelease, importTreatmentRelease, listTreatmentReleases, type TreatmentAdminDeps } from './treatment-admin';
import { loadModule } from './module-loader';
import { UsageError } from './usage';

type ClassificationFlags = Partial<Record<'scheme' | 'edition' | 'file' | 'legal-from' | 'legal-to' | 'act' | 'source-url' | 'operator' | 'totp' | 'id' | 'name' | 'action' | 'limit', string>>;

/** A usage problem of a classification command (exit code 2). */
export class ClassificationUsage extends UsageError {}

const need = (flags: ClassificationFlags, flag: keyof ClassificationFlags): string => {
  const v = flags[flag];
  if (!v) throw new ClassificationUsage(`missing --${flag}`);
  return v;
};

/** The key that seals operator TOTP secrets: DATA_ENCRYPTION_KEY, or the embedded mode's key file in DATA_DIR. */
function cipherFor(config: Config): FieldCipher {
  const text = config.dataEncryptionKey ?? (config.databaseUrl ? undefined : readOrCreateKeyFile(config.dataDir).key);
  return new FieldCipher(requireDataEncryptionKey(text, 'the classification operator workflow'));
}

async function withClassification<T>(config: Config, fn: (deps: AdminDeps) => Promise<T>): Promise<T> {
  const cipher = cipherFor(config);
  const db = await databaseForCli(config);
  const mod = await loadModule('classification');
  const orm = await createOrm({ clientUrl: db.url, schema: mod.schema, entities: mod.entities, migrations: mod.migrations, migrationsPath: mod.migrationsPath, poolMax: 2 });
  try {
    await migrate(orm, db.url, mod.schema);
    return await fn(adminDeps(await ormPool(orm), cipher));
  } finally {
    await orm.close();
    await db.close();
  }
}

/** The classification operator workflow plus the calculation schema, where treatment releases live (one database). */
async function withTreatments<T>(config: Config, fn: (deps: TreatmentAdminDeps) => Promise<T>): Promise<T> {
  const cipher = cipherFor(config);
  const db = await databaseForCli(config);
  const cls = await loadModule('classification');
  const calc = await loadModule('calculation');
  const clsOrm = await createOrm({ clientUrl: db.url, schema: cls.schema, entities: cls.entities, migrations: cls.migrations, migrationsPath: cls.migrationsPath, poolMax: 2 });
  const calcOrm = await createOrm({ clientUrl: db.url, schema: calc.schema, entities: calc.entities, migrations: calc.migrations, migrationsPath: calc.migrationsPath, poolMax: 2 });
  try {
    await migrate(clsOrm, db.url, cls.schema);
    await migrate(calcOrm, db.url, calc.schema);
    const calcPool = await ormPool(calcOrm);
    // The rate release a candidate seals must be stored (it is, once the service started; idempotent).
    await seedVatRates(calcPool, new Date());
    return await fn({ operators: adminDeps(await ormPool(clsOrm), cipher), releases: new TreatmentReleaseRepository(calcPool) });
  } finally {
    await calcOrm.close();
    await clsOrm.close();
    await db.close();
  }
}

/** Larger than any official catalog or manifest; refused before it is read into memory. */
const MAX_INPUT_BYTES = 64 * 1024 * 1024;

function readInput(path: string): { fileName: string; bytes: Buffer } {
  const st = statSync(path);
  if (!st.isFile()) throw new Error(`${path} is not a file`);
  if (st.size > MAX_INPUT_BYTES) throw new Error(`${path} is larger than ${MAX_INPUT_BYTES} bytes; it is not an official catalog or manifest file`);
  return { fileName: basename(path), bytes: readFileSync(path) };
}

function progress(stage: string, done: number, total: number): void {
  process.stderr.write(`catalog import: ${stage} ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}${stage === 'parse' ? ' bytes' : ' rows'}\n`);
}

/**
 * Runs `catalogs import|approve|list`, `operators create`, `coverage import|publish|list`, `treatments
 * import|activate|list` and `audit list`
 * in-process on the classification schema; undefined when the command is not one of them.
 */
export async function runClassificationCommand(group: string | undefined, action: string | undefined, flags: ClassificationFlags, config: Config): Promise<unknown | undefined> {
  const key = `${group} ${action}`;
  switch (key) {
    case 'operators create': {
      const name = need(flags, 'name');
      return withClassification(config, (d) => createOperator(d, name));
    }
    case 'catalogs import': {
      const input = { scheme: need(flags, 'scheme'), edition: need(flags, 'edition'), legalFrom: need(flags, 'legal-from'), legalTo: flags['legal-to'], act: need(flags, 'act'), sourceUrl: need(flags, 'source-url'), operator: need(flags, 'operator'), ...readInput(need(flags, 'file')) };
      return withClassification(config, (d) => importCatalog(d, input, progress));
    }
    case 'catalogs approve': {
      const input = { id: need(flags, 'id'), operator: need(flags, 'operator'), totp: need(flags, 'totp') };
      return withClassification(config, (d) => approveCatalog(d, input));
    }
    case 'catalogs list':
      return withClassification(config, (d) => listCatalogs(d, flags.scheme));
    case 'coverage import': {
      const input = { operator: need(flags, 'operator'), ...readInput(need(flags, 'file')) };
      return withClassification(config, (d) => importCoverage(d, input));
    }
    case 'coverage publish': {
      const input = { id: need(flags, 'id'), operator: need(flags, 'operator'), totp: need(flags, 'totp') };
      return withClassification(config, (d) => publishCoverage(d, input));
    }
    case 'coverage list':
      return withClassification(config, (d) => listCoverage(d));
    case 'treatments import': {
      const input = { operator: need(flags, 'operator'), ...readInput(need(flags, 'file')) };
      return withTreatments(config, (d) => importTreatmentRelease(d, input));
    }
    case 'treatments activate': {
      const input = { id: need(flags, 'id'), operator: need(flags, 'operator'), totp: need(flags, 'totp') };
      return withTreatments(config, (d) => activateTreatmentRelease(d, input));
    }
    case 'treatments list':
      return withTreatments(config, (d) => listTreatmentReleases(d));
    case 'audit list': {
      const limit = flags.limit === undefined ? 100 : Number(flags.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new ClassificationUsage('--limit must be an integer from 1 to 10000');
      return withClassification(config, (d) => d.operators.auditLog({ action: flags.action, limit }));
    }
    default:
      return undefined;
  }
}
