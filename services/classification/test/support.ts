import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { FieldCipher } from '@vat/platform/crypto';
import { adminDeps, OperatorRefusal, type AdminDeps } from '../src/admin/admin-deps';
import { approveCatalog, importCatalog } from '../src/admin/catalogs';
import { createOperator } from '../src/admin/operators';
import { totpCode } from '../src/domain/totp';

/** The official files (`../shared/data/classification` beside the repository, or CLASSIFICATION_DATA_DIR). */
export const DATA_DIR = process.env.CLASSIFICATION_DATA_DIR ?? fileURLToPath(new URL('../../../../shared/data/classification/', import.meta.url));
export const dataFile = (name: string): Buffer => readFileSync(join(DATA_DIR, name));

/** The official editions of the shared files, with the legal applicability of their acts. */
export const EDITIONS = {
  cn2021: { scheme: 'cn', edition: '2021', fileName: 'CN2021.csv', legalFrom: '2021-01-01', legalTo: '2022-01-01', act: 'Commission Implementing Regulation (EU) 2020/1577', sourceUrl: 'https://github.com/eurostat/correspondenceTables' },
  cn2022: { scheme: 'cn', edition: '2022', fileName: 'CN2022.csv', legalFrom: '2022-01-01', legalTo: '2023-01-01', act: 'Commission Implementing Regulation (EU) 2021/1832', sourceUrl: 'https://github.com/eurostat/correspondenceTables' },
  cpa21: { scheme: 'cpa', edition: '2.1', fileName: 'CPA21.csv', legalFrom: '2015-01-01', legalTo: undefined, act: 'Commission Regulation (EU) No 1209/2014', sourceUrl: 'https://github.com/eurostat/correspondenceTables' },
} as const;

/** The operator workflow on a test database with a clock the test moves, and two enrolled operators. */
export class Workflow {
  time = new Date('2026-11-24T10:00:05Z');
  readonly deps: AdminDeps;
  secrets: Record<string, string> = {};

  constructor(pool: pg.Pool) {
    this.deps = adminDeps(pool, new FieldCipher(randomBytes(32)), () => this.time);
  }

  async enrol(...names: string[]): Promise<void> {
    for (const name of names) this.secrets[name] = (await createOperator(this.deps, name)).secret;
  }

  /** The operator's code now (`stepOffset` -1 = the previous 30-second step). */
  code(name: string, stepOffset = 0): string {
    return totpCode(this.secrets[name]!, new Date(this.time.getTime() + stepOffset * 30_000));
  }

  /** Moves to the next 30-second step, so a fresh code exists. */
  nextStep(): void {
    this.time = new Date(this.time.getTime() + 30_000);
  }

  async import(which: keyof typeof EDITIONS, operator = 'alice', bytes?: Uint8Array) {
    const e = EDITIONS[which];
    return importCatalog(this.deps, { scheme: e.scheme, edition: e.edition, fileName: e.fileName, bytes: bytes ?? dataFile(e.fileName), legalFrom: e.legalFrom, legalTo: e.legalTo, act: e.act, sourceUrl: e.sourceUrl, operator });
  }

  async approve(id: string, operator = 'bob') {
    this.nextStep();
    return approveCatalog(this.deps, { id, operator, totp: this.code(operator) });
  }

  /** Imports by alice and approves by bob. */
  async provision(which: keyof typeof EDITIONS) {
    return this.approve((await this.import(which)).id);
  }
}

/** The refusal reason of an operator action (fails the test when it was not refused). */
export async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof OperatorRefusal) return err.reason;
    throw err;
  }
  throw new Error('the action was not refused');
}
