import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import pg from 'pg';
import type { Config } from '@vat/platform/config';
import { DATA_KEY_FILE, parseDataEncryptionKey } from '@vat/platform/crypto';
import { startEmbeddedPostgres } from '@vat/platform/embedded-pg';
import { makePrivateDir, makeTreePrivate } from '@vat/platform/embedded-pg-files';
import { pgliteVersion } from '@vat/platform/embedded-pg-template';
import { inTransaction } from '@vat/platform/transaction';
import { ArchiveReader, ArchiveWriter, BACKUP_FORMAT, type BackupManifest } from './backup-archive';
import { databaseForCli } from './database-for-cli';

/** PGlite's cluster inside DATA_DIR. */
const CLUSTER = 'pg';
/** Written while a PGlite process runs, meaningless in a copy. */
const SKIPPED = new Set(['postmaster.pid', 'postmaster.opts']);
/** The held session is closed after 60 s without a message: a query every 10 s keeps it while files are copied. */
const KEEPALIVE_MS = 10_000;

const POSTGRES_MODE = 'DATABASE_URL is set: back up and restore PostgreSQL with pg_dump and pg_restore, and keep DATA_ENCRYPTION_KEY with the dump (docs/operations.md, "Backup and restore")';

const keyDigest = (text: string) => createHash('sha256').update(parseDataEncryptionKey(text)).digest('hex');

/** The key of DATA_DIR's data: DATA_ENCRYPTION_KEY, else DATA_DIR/data-encryption.key. */
function currentKey(config: Config): string {
  if (config.dataEncryptionKey) return config.dataEncryptionKey;
  const file = join(config.dataDir, DATA_KEY_FILE);
  if (!existsSync(file)) throw new Error(`no data-encryption key: neither DATA_ENCRYPTION_KEY nor ${file} (has npm start ever run on this DATA_DIR?)`);
  return readFileSync(file, 'utf8').trim();
}

/** Every directory and file under `root`, as paths relative to it with `/` separators, parents first. */
function entriesUnder(root: string, at = ''): { path: string; dir: boolean }[] {
  return readdirSync(join(root, at), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => {
      const path = join(at, e.name).split(sep).join('/');
      if (e.isDirectory()) return [{ path, dir: true }, ...entriesUnder(root, join(at, e.name))];
      return e.isFile() && !SKIPPED.has(e.name) ? [{ path, dir: false }] : [];
    });
}

/**
 * `admin backup <file>`: a consistent copy of the embedded database while `npm start` runs (or not).
 * It holds PGlite's single session in an open transaction (every other connection waits, as it waits for
 * any transaction), writes everything to the files with CHECKPOINT, copies the cluster, then lets go: the
 * copy is the state at that instant, like a crash-consistent snapshot, and PGlite recovers it on open.
 * The data-encryption key goes into the file only with `includeKey`; its SHA-256 always does.
 */
export async function backupDataDir(config: Config, file: string, opts: { includeKey: boolean }) {
  if (config.databaseUrl) throw new Error(POSTGRES_MODE);
  const key = currentKey(config);
  const dataDir = resolve(config.dataDir);
  const cluster = join(dataDir, CLUSTER);
  if (!existsSync(cluster)) throw new Error(`no embedded database in ${dataDir}`);
  const target = resolve(file);
  if (!relative(dataDir, target).startsWith('..')) throw new Error('write the backup outside DATA_DIR');
  if (existsSync(target)) throw new Error(`${target} exists; give a new file name`);
  const db = await databaseForCli(config);
  // One session, held in a transaction through `inTransaction` (the only way a transaction is opened).
  const pool = new pg.Pool({ connectionString: db.url, max: 1 });
  pool.on('error', () => undefined);
  let writer: ArchiveWriter | undefined;
  try {
    return await inTransaction(pool, async (client) => {
      await client.query('checkpoint');
      const keepalive = setInterval(() => void client.query('select 1').catch(() => undefined), KEEPALIVE_MS);
      try {
        const manifest: BackupManifest = {
          format: BACKUP_FORMAT,
          created_at: new Date().toISOString(),
          pglite_version: pgliteVersion(),
          data_encryption_key_sha256: keyDigest(key),
          ...(opts.includeKey ? { data_encryption_key: key } : {}),
          migrations: await appliedMigrations(client),
        };
        writer = new ArchiveWriter(target, manifest);
        await writer.addDir(CLUSTER);
        for (const e of entriesUnder(cluster)) await (e.dir ? writer.addDir(`${CLUSTER}/${e.path}`) : writer.add(`${CLUSTER}/${e.path}`, readFileSync(join(cluster, e.path))));
        const written = await writer.finish();
        return { file: target, created_at: manifest.created_at, files: written.files, bytes: written.bytes, compressed_bytes: statSync(target).size, key_included: opts.includeKey };
      } finally {
        clearInterval(keepalive);
      }
    });
  } catch (err) {
    if (writer) rmSync(target, { force: true });
    throw err;
  } finally {
    await pool.end().catch(() => undefined);
    await db.close();
  }
}

async function appliedMigrations(client: pg.Client): Promise<Record<string, string[]>> {
  const schemas = await client.query<{ s: string }>(`select table_schema as s from information_schema.tables where table_name = 'mikro_orm_migrations' order by 1`);
  const out: Record<string, string[]> = {};
  for (const { s } of schemas.rows) out[s] = (await client.query<{ name: string }>(`select name from "${s}".mikro_orm_migrations order by id`)).rows.map((r) => r.name);
  return out;
}

/** Which key a restore uses: `--key-file`, else the one inside the backup, else DATA_ENCRYPTION_KEY. */
function restoreKey(config: Config, manifest: BackupManifest, keyFile: string | undefined): { text: string; from: 'key-file' | 'backup' | 'DATA_ENCRYPTION_KEY' } {
  const chosen = keyFile
    ? { text: readFileSync(keyFile, 'utf8').trim(), from: 'key-file' as const }
    : manifest.data_encryption_key
      ? { text: manifest.data_encryption_key, from: 'backup' as const }
      : config.dataEncryptionKey
        ? { text: config.dataEncryptionKey, from: 'DATA_ENCRYPTION_KEY' as const }
        : undefined;
  if (!chosen) throw new Error('the backup holds no data-encryption key (it was made without --include-key): give the key of the backed-up DATA_DIR with --key-file <its data-encryption.key> or DATA_ENCRYPTION_KEY');
  if (keyDigest(chosen.text) !== manifest.data_encryption_key_sha256) throw new Error(`the data-encryption key from ${chosen.from} is not the key of the backed-up data`);
  return chosen;
}

/**
 * `admin restore <file>` into an empty (or new) DATA_DIR: checks the whole file and the key before it
 * writes, unpacks the cluster under a temporary name and renames it into place, writes the key file
 * (unless the key comes from DATA_ENCRYPTION_KEY), then opens the database once to prove it starts.
 * On any failure DATA_DIR is left empty again.
 */
export async function restoreDataDir(config: Config, file: string, opts: { keyFile?: string }) {
  if (config.databaseUrl) throw new Error(POSTGRES_MODE);
  const dataDir = resolve(config.dataDir);
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) throw new Error(`DATA_DIR ${dataDir} is not empty: restore only into an empty or new directory`);
  const manifest = await new ArchiveReader(file).manifest();
  if (manifest.pglite_version !== pgliteVersion()) throw new Error(`the backup was made with PGlite ${manifest.pglite_version}; this installation has ${pgliteVersion()}: restore it with the version that made it`);
  const key = restoreKey(config, manifest, opts.keyFile);
  // Read the whole file once before writing anything: a damaged backup leaves DATA_DIR untouched.
  for await (const _ of readEntries(file));
  process.umask(0o077);
  makePrivateDir(dataDir);
  const staging = join(dataDir, '.restoring');
  try {
    let files = 0;
    for await (const entry of readEntries(file)) {
      const path = join(staging, entry.path);
      if (!entry.content) {
        mkdirSync(path, { recursive: true, mode: 0o700 });
        continue;
      }
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(path, entry.content, { mode: 0o600 });
      files++;
    }
    renameSync(join(staging, CLUSTER), join(dataDir, CLUSTER));
    rmSync(staging, { recursive: true, force: true });
    if (key.from !== 'DATA_ENCRYPTION_KEY') writeFileSync(join(dataDir, DATA_KEY_FILE), `${key.text}\n`, { mode: 0o600 });
    makeTreePrivate(dataDir);
    const accounts = await openOnce(dataDir);
    return { data_dir: dataDir, backup_created_at: manifest.created_at, files, key_from: key.from, accounts };
  } catch (err) {
    for (const name of readdirSync(dataDir)) rmSync(join(dataDir, name), { recursive: true, force: true });
    throw err;
  }
}

/** The entries of a backup, each path checked to stay inside the cluster directory. */
async function* readEntries(file: string): AsyncGenerator<{ path: string; content?: Buffer }> {
  const reader = new ArchiveReader(file);
  await reader.manifest();
  for await (const entry of reader.entries()) {
    const path = normalize(entry.path);
    if (isAbsolute(path) || (path !== CLUSTER && !path.startsWith(`${CLUSTER}${sep}`)) || path.split(sep).includes('..')) throw new Error(`the backup file is damaged (entry ${JSON.stringify(entry.path)})`);
    yield { path, content: entry.content };
  }
}

/** Opens the restored cluster (PGlite recovers it) and counts the accounts: proof that it starts. */
async function openOnce(dataDir: string): Promise<number> {
  const db = await startEmbeddedPostgres(dataDir);
  const client = new pg.Client({ connectionString: db.url });
  try {
    await client.connect();
    const res = await client.query<{ n: string }>(`select count(*)::text as n from gateway.account`).catch(() => ({ rows: [{ n: '0' }] }));
    return Number(res.rows[0]!.n);
  } finally {
    await client.end().catch(() => undefined);
    await db.stop();
  }
}
