import { readFileSync } from 'node:fs';
import pg from 'pg';
import { expect } from 'vitest';
import { TreatmentReleaseRepository } from '../../services/calculation/src/repositories/treatment-releases';
import { Workflow } from '../../services/classification/test/support';
import { activateTreatmentRelease, importTreatmentRelease, type TreatmentAdminDeps } from '../../deploy/src/treatment-admin';
import type { Harness } from '../../test/support/harness';

export type Json = Record<string, any>;
export type Res = { statusCode: number; body: string; headers: Record<string, unknown>; json(): any };

export const SEED_RELEASE = readFileSync(new URL('../../seeds/treatment-releases/eu27-sales-vat-2026-11.json', import.meta.url));
export const seedRelease = (): Json => JSON.parse(SEED_RELEASE.toString('utf8'));

/** The operator workflow (alice imports, bob activates) on the harness's database, for treatment releases. */
export class TreatmentDesk {
  readonly pool: pg.Pool;
  readonly w: Workflow;
  readonly deps: TreatmentAdminDeps;

  constructor(h: Harness) {
    this.pool = new pg.Pool({ connectionString: h.databaseUrl, max: 2 });
    this.w = new Workflow(this.pool);
    this.deps = { operators: this.w.deps, releases: new TreatmentReleaseRepository(this.pool) };
  }

  async enrol(): Promise<void> {
    await this.w.enrol('alice', 'bob');
  }

  import(release: Json | Buffer = SEED_RELEASE, operator = 'alice') {
    const bytes = Buffer.isBuffer(release) ? release : Buffer.from(JSON.stringify(release));
    return importTreatmentRelease(this.deps, { fileName: 'release.json', bytes, operator });
  }

  activate(id: string, operator = 'bob') {
    this.w.nextStep();
    return activateTreatmentRelease(this.deps, { id, operator, totp: this.w.code(operator) });
  }

  /** Imports (alice) and activates (bob). */
  async provision(release: Json | Buffer = SEED_RELEASE) {
    return this.activate((await this.import(release)).id);
  }

  close() {
    return this.pool.end();
  }
}

/** A v2 request body: a DE B2C domestic supply unless overridden. */
export function v2Body(over: Json = {}, ctx: Json = {}): Json {
  return {
    country: 'DE',
    currency: 'EUR',
    amount_minor: 11900,
    price_includes_vat: true,
    transaction_date: '2026-03-01',
    tax_class_id: 'standard',
    treatment_context: { customer_type: 'b2c', supplier_establishment_country: 'DE', dispatch_country: 'DE', destination_country: 'DE', ...ctx },
    ...over,
  };
}

export function component(decision: Json, kind: string): Json {
  const c = decision.components.find((x: Json) => x.kind === kind);
  expect(c, kind).toBeDefined();
  return c;
}

/** The three obligations the initial release does not implement: unsupported, with legal basis and findings. */
export function expectUnimplemented(decision: Json): void {
  expect(decision.components.map((c: Json) => c.kind)).toEqual(['sales_vat', 'import_vat', 'customs_duty', 'fees']);
  for (const kind of ['import_vat', 'customs_duty', 'fees']) {
    const c = component(decision, kind);
    expect(c).toMatchObject({ treatment: null, treatment_status: 'unsupported', amount_status: 'unsupported', amount_minor: null, findings: ['unsupported_scope'], deduction_status: 'unknown' });
    expect(c.legal_basis.length).toBeGreaterThan(0);
  }
}
