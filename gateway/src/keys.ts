import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { insertStatement } from '@vat/platform/sql';

/** The gateway's PostgreSQL schema (accounts, keys, integrations, usage, sessions). */
export const GATEWAY_SCHEMA = 'gateway';

export const V2_SCOPES = ['full', 'read-only', 'calculate-only', 'classification-resolve', 'classification-write', 'vat-number-check'] as const;
const LEGACY_SCOPE = 'legacy';

const KEY_PATTERN = /^vat_([a-z0-9]{16})_([A-Za-z0-9_-]{43})$/;

/** A new key: 80-bit lookup id plus a 256-bit secret; only the secret's SHA-256 is stored. */
function generateKey(): { publicId: string; secret: string; key: string; secretHash: string } {
  const publicId = randomBytes(10).toString('hex').slice(0, 16);
  const secret = randomBytes(32).toString('base64url');
  return { publicId, secret, key: `vat_${publicId}_${secret}`, secretHash: hashSecret(secret) };
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function parseKey(key: string): { publicId: string; secret: string } | undefined {
  const m = KEY_PATTERN.exec(key);
  return m ? { publicId: m[1]!, secret: m[2]! } : undefined;
}

/** Whether a presented secret's SHA-256 is the stored one (constant time; the one-shot digest, no hex round trip: every authenticated request runs it). */
export function secretMatches(secret: string, storedHash: string): boolean {
  const a = hash('sha256', secret, 'buffer');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export type KeyRecord = { id: bigint; accountId: bigint; kind: 'v2' | 'legacy'; scope: string; revoked: boolean; secretHash: string };

type KeyRow = { id: string; account_id: string; public_id: string; secret_hash: string; kind: string; scope: string; created_at: string; revoked_at: string | null; calculation_count: string; last_calculation_at: string | null };

/** A timestamp column as the API's ISO-8601 text in UTC, milliseconds (pools differ in how they parse timestamps). */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${column}`;

const record = (r: Pick<KeyRow, 'id' | 'account_id' | 'kind' | 'scope' | 'secret_hash'> & { revoked: boolean }): KeyRecord => ({
  id: BigInt(r.id),
  accountId: BigInt(r.account_id),
  kind: r.kind === 'legacy' ? 'legacy' : 'v2',
  scope: r.scope,
  revoked: r.revoked,
  secretHash: r.secret_hash,
});

const RECORD_COLUMNS = 'id::text, account_id::text, kind, scope, revoked_at is not null as revoked, secret_hash';

/**
 * Key administration (the admin CLI in both run modes) and the gateway's key lookups, as SQL on the gateway's pool
 * (the tables of ./entities, migrated by ./orm). No ORM: `admin keys create` then runs without MikroORM's metadata
 * discovery, about a third of the command's time (docs/benchmarks.md).
 */
export class KeyStore {
  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  async ensureAccount(name: string): Promise<{ id: bigint; name: string }> {
    const added = await this.pool.query<{ id: string; name: string }>(
      'insert into "gateway".account (name, created_at) values ($1, now()) on conflict (name) do nothing returning id::text, name',
      [name],
    );
    // An existing account: read in a statement of its own, which sees an insert that a concurrent call committed meanwhile.
    const row = added.rows[0] ?? (await this.findAccount(name));
    if (!row) throw new Error(`account ${name} was neither created nor found`);
    return { id: BigInt(row.id), name: row.name };
  }

  /** The account of this name, if there is one (the admin CLI acts for an account by name). */
  async findAccount(name: string): Promise<{ id: bigint; name: string } | undefined> {
    const { rows } = await this.pool.query<{ id: string; name: string }>('select id::text, name from "gateway".account where name = $1', [name]);
    return rows[0] ? { id: BigInt(rows[0].id), name: rows[0].name } : undefined;
  }

  async create(accountName: string, scope: string, legacy: boolean, label?: string) {
    if (!legacy && !(V2_SCOPES as readonly string[]).includes(scope)) throw new Error(`unknown scope ${scope}; one of ${V2_SCOPES.join(', ')}`);
    const account = await this.ensureAccount(accountName);
    const k = generateKey();
    const insert = insertStatement('"gateway".api_key', {
      account_id: account.id.toString(),
      public_id: k.publicId,
      secret_hash: k.secretHash,
      kind: legacy ? 'legacy' : 'v2',
      scope: legacy ? LEGACY_SCOPE : scope,
      label: label ?? null,
      created_at: new Date(),
      calculation_count: 0,
    });
    const { rows } = await this.pool.query<Pick<KeyRow, 'id' | 'kind' | 'scope' | 'created_at'>>(`${insert.text} returning id::text, kind, scope, ${iso('created_at')}`, insert.values);
    const row = rows[0]!;
    return { id: row.id, account: account.name, account_id: account.id.toString(), kind: row.kind, scope: row.scope, key: k.key, created_at: row.created_at };
  }

  async list(accountName: string) {
    const account = await this.findAccount(accountName);
    if (!account) return [];
    const { rows } = await this.pool.query<KeyRow>(
      `select id::text, public_id, kind, scope, ${iso('created_at')}, ${iso('revoked_at')}, calculation_count::text, ${iso('last_calculation_at')}
       from "gateway".api_key where account_id = $1 order by id`,
      [account.id.toString()],
    );
    return rows.map((r) => ({
      id: r.id,
      account: account.name,
      kind: r.kind,
      scope: r.scope,
      key_prefix: `vat_${r.public_id}_…`,
      created_at: r.created_at,
      revoked_at: r.revoked_at,
      calculation_count: r.calculation_count,
      last_calculation_at: r.last_calculation_at,
    }));
  }

  /** Revokes the key (its first revocation time stays); false when there is no such key. */
  async revoke(id: bigint): Promise<boolean> {
    const { rowCount } = await this.pool.query('update "gateway".api_key set revoked_at = coalesce(revoked_at, $2) where id = $1', [id.toString(), new Date()]);
    return (rowCount ?? 0) > 0;
  }

  async createIntegration(accountName: string, name: string) {
    const account = await this.ensureAccount(accountName);
    const insert = insertStatement('"gateway".integration', { account_id: account.id.toString(), name, created_at: new Date() });
    const { rows } = await this.pool.query<{ id: string; name: string; created_at: string }>(`${insert.text} returning id::text, name, ${iso('created_at')}`, insert.values);
    const row = rows[0]!;
    return { id: row.id, account: account.name, name: row.name, created_at: row.created_at };
  }

  async findByPublicId(publicId: string): Promise<KeyRecord | undefined> {
    const { rows } = await this.pool.query<KeyRow & { revoked: boolean }>(`select ${RECORD_COLUMNS} from "gateway".api_key where public_id = $1`, [publicId]);
    return rows[0] ? record(rows[0]) : undefined;
  }

  async findById(id: bigint): Promise<KeyRecord | undefined> {
    const { rows } = await this.pool.query<KeyRow & { revoked: boolean }>(`select ${RECORD_COLUMNS} from "gateway".api_key where id = $1`, [id.toString()]);
    return rows[0] ? record(rows[0]) : undefined;
  }

  async integrationOwnedBy(integrationId: bigint, accountId: bigint): Promise<boolean> {
    const { rowCount } = await this.pool.query('select 1 from "gateway".integration where id = $1 and account_id = $2', [integrationId.toString(), accountId.toString()]);
    return (rowCount ?? 0) > 0;
  }
}
