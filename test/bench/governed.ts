import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { FieldCipher } from '@vat/platform/crypto';
import { adminDeps, OperatorRefusal } from '@vat/classification/admin/admin-deps';
import { createOperator } from '@vat/classification/admin/operators';
import { totpCode } from '@vat/classification/domain/totp';
import { TreatmentReleaseRepository } from '@vat/calculation/repositories/treatment-releases';
import { activateTreatmentRelease, importTreatmentRelease } from '@vat/deploy/treatment-admin';
import { freshDatabase } from '../support/env';
import { freePort, runAdmin, spawnMain, stopProcess, waitReady } from '../support/processes';
import { CALCULATE_BODY } from './requests';

/**
 * Issue 12: persisted `POST /v2/vat/calculate` (a settled domestic sales-VAT component, a stored decision per
 * request, fresh Idempotency-Key) beside persisted `POST /v1/vat/calculate`, one process (`all`) on PostgreSQL,
 * BENCH_GOVERNED_CONNECTIONS (64) callers for BENCH_SECONDS (10). A section of its own, run alone with
 * `npm run bench -- governed` (or `npx tsx test/bench/governed.ts`).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_GOVERNED_CONNECTIONS ?? 64);

/** Enrols two operators and imports and activates the shipped candidate release, as the CLI would. */
async function activateSeedRelease(databaseUrl: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const ops = adminDeps(pool, new FieldCipher(randomBytes(32)));
    const bob = (await createOperator(ops, 'bench-bob')).secret;
    await createOperator(ops, 'bench-alice');
    const deps = { operators: ops, releases: new TreatmentReleaseRepository(pool) };
    const bytes = readFileSync(new URL('../../seeds/treatment-releases/eu27-sales-vat-2026-11.json', import.meta.url));
    const c = await importTreatmentRelease(deps, { fileName: 'eu27.json', bytes, operator: 'bench-alice' });
    // A code read just before a 30-second step ends is stale when checked; the next step's code is fresh.
    for (let attempt = 0; ; attempt++) {
      try {
        await activateTreatmentRelease(deps, { id: c.id, operator: 'bench-bob', totp: totpCode(bob, new Date()) });
        return;
      } catch (err) {
        if (attempt > 0 || !(err instanceof OperatorRefusal) || err.reason !== 'totp_stale') throw err;
      }
    }
  } finally {
    await pool.end();
  }
}

let seq = 0;
const runId = Date.now().toString(36);
function request(base: string, key: string, path: string, body: unknown): autocannon.Options {
  return {
    url: base,
    duration: SECONDS,
    connections: CONNECTIONS,
    requests: [
      {
        method: 'POST',
        path,
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        setupRequest: (req: autocannon.Request) => ({ ...req, headers: { ...req.headers, 'idempotency-key': `gov-${runId}-${seq++}` } }),
      },
    ],
  };
}

const db = await freshDatabase({ prefix: 'vat_bench_gov' });
const port = await freePort();
const env = { DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' };
const proc = spawnMain('all', env);
try {
  const base = `http://127.0.0.1:${port}`;
  await waitReady(base, [proc], 180_000);
  await activateSeedRelease(db.url);
  const key = (await runAdmin<{ key: string }>(['keys', 'create', '--account', 'bench-gov', '--scope', 'full'], { DATABASE_URL: db.url })).json.key;
  const v1 = await autocannon(request(base, key, '/v1/vat/calculate', CALCULATE_BODY));
  const v2 = await autocannon(
    request(base, key, '/v2/vat/calculate', {
      country: 'DE', currency: 'EUR', amount_minor: 11900, price_includes_vat: true, transaction_date: '2026-03-01', tax_class_id: 'standard',
      treatment_context: { customer_type: 'b2c', supplier_establishment_country: 'DE', dispatch_country: 'DE', destination_country: 'DE' },
    }),
  );
  console.log(`\n| scenario (${SECONDS} s, ${CONNECTIONS} connections) | req/s | p50 ms | p99 ms | non-2xx |\n|---|---:|---:|---:|---:|`);
  for (const [name, r] of [['POST /v1/vat/calculate (persisted)', v1], ['POST /v2/vat/calculate (persisted decision, partial)', v2]] as const) {
    console.log(`| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx} |`);
  }
} finally {
  await stopProcess(proc);
  await db.drop();
}
