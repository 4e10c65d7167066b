/**
 * What the outbox relay's claim costs after a load: `npx tsx test/bench/outbox-claim.ts [seconds]` runs the
 * one-process server on a fresh PostgreSQL database under persisted `POST /v1/vat/calculate` (64 connections, fresh
 * Idempotency-Key each), then prints the calculation outbox's row counts and the claim's plan (EXPLAIN ANALYZE,
 * rolled back) with the relay's settings and with the planner's defaults (platform/src/outbox.ts,
 * settleAndClaimStatement; docs/benchmarks.md, fifteenth session), then the time of the metrics' pending count
 * (platform/src/outbox-scan.ts) both ways.
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { CLAIM_SETTINGS, settleAndClaimSql } from '@vat/platform/outbox';
import { OUTBOX_SCAN_SETTINGS, outboxPendingSql } from '@vat/platform/outbox-scan';
import { freshDatabase } from '../support/env';
import { freePort, runAdmin, spawnMain, stopProcess, waitFor } from '../support/processes';
import { persistedCalculation } from './requests';

const seconds = Number(process.argv[2] ?? 15);
const db = await freshDatabase({ prefix: 'vat_outbox_claim' });
const port = await freePort();
const server = spawnMain('all', { DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' });
const client = new pg.Client({ connectionString: db.url });
try {
  const base = `http://127.0.0.1:${port}`;
  await waitFor('/ready', async () => (await fetch(`${base}/ready`).catch(() => undefined))?.ok, { timeoutMs: 180_000, intervalMs: 100 });
  const key = (await runAdmin<{ key: string }>(['keys', 'create', '--account', 'claim', '--scope', 'full'], { DATABASE_URL: db.url })).json.key;
  const run = randomBytes(6).toString('hex');
  const r = await autocannon({
    url: base,
    duration: seconds,
    connections: 64,
    requests: [persistedCalculation(key, `claim-${run}`)],
  });
  console.log(`persisted calculation: ${r.requests.average.toFixed(0)} req/s for ${seconds} s, non-2xx ${r.non2xx}`);
  await client.connect();
  const stats = await client.query(`select n_live_tup, n_dead_tup, n_tup_upd, n_tup_hot_upd, autovacuum_count, autoanalyze_count from pg_stat_user_tables where schemaname = 'calculation' and relname = 'outbox'`);
  console.log('calculation.outbox:', stats.rows[0]);
  for (const [label, settings] of [['the relay\'s settings', CLAIM_SETTINGS], ['the planner\'s defaults', '']] as const) {
    await client.query('begin');
    if (settings) await client.query(settings);
    const plan = await client.query(`explain (analyze, buffers) ${settleAndClaimSql('calculation', [], [], 200)}`);
    await client.query('rollback');
    const lines = plan.rows.map((x) => x['QUERY PLAN'] as string);
    // The claim's own scan of unpublished rows, the page accesses of the whole statement, its time.
    const scan = lines.filter((l) => /Bitmap|outbox_unpublished_created_at_idx|outbox_published_at_index|outbox_created_at_index/.test(l));
    console.log(`\nclaim with ${label}:\n${[...scan, lines.find((l) => /Buffers: shared/.test(l)), lines.find((l) => /Execution Time/.test(l))].map((l) => `  ${l?.trim()}`).join('\n')}`);
  }
  for (const [label, settings] of [['the index walk', OUTBOX_SCAN_SETTINGS], ['the planner\'s defaults', '']] as const) {
    await client.query('begin');
    if (settings) await client.query(settings);
    const plan = await client.query(`explain (analyze, buffers) ${outboxPendingSql('calculation')}`);
    await client.query('rollback');
    const lines = plan.rows.map((x) => x['QUERY PLAN'] as string);
    console.log(`\npending count with ${label}: ${[lines.find((l) => /Buffers: shared/.test(l)), lines.find((l) => /Execution Time/.test(l))].map((l) => l?.trim()).join(', ')}`);
  }
} finally {
  await client.end().catch(() => undefined);
  await stopProcess(server);
  await db.drop();
}
