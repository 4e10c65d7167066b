import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalculationRecordedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { calculationsRecorded } from '@vat/platform/calculation-recorded';
import { subjectOf } from '@vat/platform/events';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import { calculationRecordedEvent } from '../src/calculation-record';
import type { CalculationDeps } from '../src/context';
import type { StoredRateEvidence } from '../src/evidence';
import { CalculationRepository, evidenceDoc, type NewCalculation } from '../src/repositories/calculations';

const backends = await requireBackends(['postgres']);

/** Two evidence objects, as two rate windows would pin them (the group sends each once). */
const EVIDENCE: StoredRateEvidence[] = ['19', '7'].map((rate) => ({
  release_digest: `sha256:release`,
  release_version: '2026.1',
  release_approved_at: null,
  release_approved_by: null,
  row_digest: `sha256:row-${rate}`,
  window: { rate_bps: Number(rate) * 100, sources: [{ source_id: 'eu-tedb', title: 'TEDB', url: 'https://example.test/tedb', as_of: '2026-01-01' }] } as unknown as StoredRateEvidence['window'],
  pinned_digest: `sha256:pinned-${rate}`,
  evidence_status: 'legacy_unverifiable',
}));

/** A stored calculation as the v1 handler builds it (net 10,000 + VAT 1,900 at 19 %). */
function calculation(accountId: bigint, idempotencyKey: string | null, i: number, over: Partial<NewCalculation> = {}): NewCalculation {
  return {
    id: randomUUID(),
    accountId,
    apiKeyId: 1n,
    createdAt: new Date(Date.UTC(2026, 10, 29, 10, 0, 0, i)),
    transactionDate: new Date('2026-03-01T00:00:00.000Z'),
    country: 'DE',
    currency: 'EUR',
    taxClassId: 'standard',
    priceIncludesVat: false,
    amountMinor: 10_000n + BigInt(i),
    netMinor: 10_000n + BigInt(i),
    vatMinor: 1_900n,
    grossMinor: 11_900n + BigInt(i),
    vatRateBps: 1900,
    sourceId: i % 3 === 0 ? 'shop/eu' : null,
    idempotencyKey,
    requestDigest: `sha256:request-${i}`,
    canonicalRequest: { schema: 'vat-calculate-request/v1', country: 'DE', currency: 'EUR', tax_class_id: 'standard', amount_minor: String(10_000 + i), price_includes_vat: false, transaction_date: '2026-03-01T00:00:00.000Z', source_id: null },
    rateEvidence: EVIDENCE[i % 2]!,
    rateEvidenceStatus: 'legacy_unverifiable',
    replayStatus: 'replayable',
    calculationVersion: 'calc/v1',
    executionDigest: 'sha256:exec',
    manifestDigest: 'sha256:manifest',
    ...over,
  };
}

describe.skipIf(!backends.ok)('stored calculations are written in groups (group commit, PostgreSQL)', () => {
  let h: ServiceHarness<CalculationDeps>;
  let statements: string[];
  /** Statements of the recording pools running at once now, and the most seen since reset. */
  let running = 0;
  let mostRunning = 0;
  let repo: CalculationRepository;
  const q = async (sql: string, params: unknown[] = []) => (await h.deps.pool.query(sql, params)).rows;
  /** The calculation events among `ids` that the outbox holds, each with its outbox row (a group row holds several). */
  const recordedAmong = async (ids: string[]) => {
    const wanted = new Set(ids);
    const rows = await q(`select id, subject, payload from calculation.outbox where subject = $1 order by created_at, id`, [subjectOf(CalculationRecordedSchema)]);
    return rows.flatMap((r) => calculationsRecorded([{ id: r.id as string, subject: r.subject as string, data: new Uint8Array(r.payload as Buffer) }]).map((e) => ({ rowId: r.id as string, ...e }))).filter((e) => wanted.has(e.id));
  };

  /** A pool that records which statement it runs, the group insert or another (the repository's only way to the database). */
  const recording = (pool: pg.Pool): pg.Pool => {
    const counting = Object.create(pool) as pg.Pool;
    counting.query = ((config: unknown, values?: unknown) => {
      // The group insert is the one statement reading its rows from a JSON array parameter.
      const text = typeof config === 'string' ? config : (config as { text: string }).text;
      statements.push(text.includes('jsonb_array_elements($1::jsonb)') ? 'group' : 'other');
      mostRunning = Math.max(mostRunning, ++running);
      return (pool.query as (c: unknown, v?: unknown) => Promise<unknown>)(config, values).finally(() => running--);
    }) as pg.Pool['query'];
    return counting;
  };

  beforeAll(async () => {
    h = await startServiceHarness<CalculationDeps>('calculation');
    // A pool that records which statement it runs, the group insert or another (the repository's only way to the database).
    statements = [];
    repo = new CalculationRepository(recording(h.deps.pool));
  });
  afterAll(async () => {
    await h?.close();
  });

  it('60 concurrent calls of two accounts: every row stored once with its event, in fewer statements than calls, each answer the stored row', async () => {
    statements.length = 0;
    const rows = Array.from({ length: 60 }, (_, i) => calculation(i % 2 ? 7101n : 7102n, `group-${i}`, i));
    const events = rows.map((c) => calculationRecordedEvent(c));
    const answers = await Promise.all(rows.map((c, i) => repo.insertOnce(c, events[i]!)));
    expect(answers.every((a) => a !== undefined)).toBe(true);
    // Calls made in one turn of the event loop go together: one statement for all 60.
    expect(statements).toEqual(['group']);
    const stored = await q(`select id, seq::text as seq, idempotency_key, amount_minor::text as amount, rate_evidence, rate_evidence_digest, canonical_request, source_id from calculation.calculation where account_id in (7101, 7102)`);
    expect(stored).toHaveLength(60);
    const byId = new Map(stored.map((r) => [r.id as string, r]));
    rows.forEach((c, i) => {
      const r = byId.get(c.id)!;
      expect(r.seq).toBe(answers[i]!.seq.toString());
      expect(r.idempotency_key).toBe(`group-${i}`);
      expect(r.amount).toBe(String(10_000 + i));
      // The evidence by name: its window's document, stored once.
      expect(r.rate_evidence).toBeNull();
      expect(r.rate_evidence_digest).toBe(evidenceDoc(EVIDENCE[i % 2]!).digest);
      expect(r.canonical_request).toEqual(c.canonicalRequest);
      expect(r.source_id).toBe(c.sourceId);
      expect(answers[i]).toEqual({ ...c, seq: answers[i]!.seq });
    });
    expect(new Set(stored.map((r) => r.seq)).size).toBe(60);
    const docs = await q(`select digest, doc from calculation.rate_evidence_doc where digest = any($1::text[]) order by digest`, [EVIDENCE.map((e) => evidenceDoc(e).digest)]);
    expect(docs.map((d) => d.doc)).toEqual(EVIDENCE.map((e) => ({ digest: evidenceDoc(e).digest, doc: e })).sort((a, b) => a.digest.localeCompare(b.digest)).map((d) => d.doc));
    // Read back, each record carries its window's evidence.
    const read = await repo.ownedMany(7101n, rows.filter((_, i) => i % 2).map((c) => c.id));
    expect(read).toHaveLength(30);
    for (const r of read) expect(r.rateEvidence).toEqual(EVIDENCE[Number(r.amountMinor - 10_000n) % 2]);
    // Every row's event once, inside its account's group event (fewer outbox rows than calculations), in storage order.
    const sent = await recordedAmong(events.map((e) => e.id));
    expect(sent.map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
    const groups = new Map<string, typeof sent>();
    for (const e of sent) groups.set(e.rowId, [...(groups.get(e.rowId) ?? []), e]);
    expect(groups.size).toBeLessThan(60);
    for (const members of groups.values()) {
      expect(new Set(members.map((e) => e.event.accountId)).size).toBe(1);
      const seqs = members.map((e) => answers[rows.findIndex((c) => c.id === e.event.calculationId)]!.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => (a < b ? -1 : 1)));
    }
  });

  it('calls of one turn of the event loop go together (64 a statement); three statements in flight on a PostgreSQL server, one on the embedded database; a lone call goes alone', async () => {
    const counted = (repository: CalculationRepository, account: bigint, tag: string, n: number) =>
      Promise.all(Array.from({ length: n }, (_, i) => calculation(account, `${tag}-${i}`, i)).map((c) => repository.insertOnce(c, calculationRecordedEvent(c))));
    // 200 calls at once: 64 + 64 + 64 + 8 rows; the fourth statement waits for a slot.
    statements.length = 0;
    mostRunning = 0;
    expect((await counted(repo, 7111n, 'three', 200)).every((a) => a !== undefined)).toBe(true);
    expect(statements).toEqual(['group', 'group', 'group', 'group']);
    expect(mostRunning).toBe(3);
    statements.length = 0;
    mostRunning = 0;
    expect((await counted(new CalculationRepository(recording(h.deps.pool), 1), 7112n, 'one', 200)).every((a) => a !== undefined)).toBe(true);
    expect(statements).toEqual(['group', 'group', 'group', 'group']);
    expect(mostRunning).toBe(1);
    // Calls of later turns while the slots are taken wait for one; a call alone in its turn goes alone.
    statements.length = 0;
    const first = counted(repo, 7113n, 'first', 192);
    await new Promise((r) => setImmediate(r));
    const later = counted(repo, 7113n, 'later', 5);
    expect((await Promise.all([first, later])).flat().every((a) => a !== undefined)).toBe(true);
    expect(statements).toEqual(['group', 'group', 'group', 'group']);
    statements.length = 0;
    expect(await counted(repo, 7114n, 'alone', 1)).toHaveLength(1);
    expect(statements).toEqual(['other']);
    expect(await q(`select account_id::int as account, count(*)::int as n from calculation.calculation where account_id between 7111 and 7114 group by 1 order by 1`)).toEqual([
      { account: 7111, n: 200 },
      { account: 7112, n: 200 },
      { account: 7113, n: 197 },
      { account: 7114, n: 1 },
    ]);
  });

  it('a key used twice in one group stores the first row only, and only its event; the other answers undefined (the handler then replays the winner)', async () => {
    statements.length = 0;
    const rows = Array.from({ length: 30 }, (_, i) => calculation(7103n, i % 10 === 9 ? 'same-key' : `dup-${i}`, i));
    const events = rows.map((c) => calculationRecordedEvent(c));
    const answers = await Promise.all(rows.map((c, i) => repo.insertOnce(c, events[i]!)));
    const won = rows.filter((_, i) => answers[i] !== undefined && rows[i]!.idempotencyKey === 'same-key');
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a === undefined)).toHaveLength(2);
    expect(await q(`select id from calculation.calculation where account_id = 7103 and idempotency_key = 'same-key'`)).toEqual([{ id: won[0]!.id }]);
    expect(await q(`select count(*)::int as n from calculation.calculation where account_id = 7103`)).toEqual([{ n: 28 }]);
    // An event for every stored row and none for the two skipped ones.
    const sent = await recordedAmong(events.map((e) => e.id));
    const expected = events.filter((_, i) => answers[i] !== undefined).map((e) => e.id).sort();
    expect(sent.map((e) => e.id).sort()).toEqual(expected);
  });

  it('a row the database refuses fails its own call only: the group is retried row by row', async () => {
    statements.length = 0;
    const rows = Array.from({ length: 20 }, (_, i) => calculation(7104n, `refused-${i}`, i, i === 13 ? { country: 'DEU' } : {}));
    const settled = await Promise.allSettled(rows.map((c) => repo.insertOnce(c, calculationRecordedEvent(c))));
    expect(settled.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason))).toEqual([expect.stringMatching(/value too long/)]);
    expect((settled[13] as PromiseRejectedResult).reason).toBeDefined();
    expect(await q(`select count(*)::int as n from calculation.calculation where account_id = 7104`)).toEqual([{ n: 19 }]);
    expect(statements.filter((s) => s === 'group').length).toBeGreaterThan(0);
  });

  it('a group the database cannot take because it is unreachable fails every call at once with that error, without trying each row again', async () => {
    statements.length = 0;
    const down = Object.create(h.deps.pool) as pg.Pool;
    down.query = ((config: unknown) => {
      const text = typeof config === 'string' ? config : (config as { text: string }).text;
      statements.push(text.includes('jsonb_array_elements($1::jsonb)') ? 'group' : 'other');
      return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    }) as pg.Pool['query'];
    const unreachable = new CalculationRepository(down);
    const settled = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => calculation(7107n, `down-${i}`, i)).map((c) => unreachable.insertOnce(c, calculationRecordedEvent(c))));
    expect(settled.map((s) => (s.status === 'rejected' ? (s.reason as { code?: string }).code : 'stored'))).toEqual(Array(10).fill('ECONNREFUSED'));
    expect(statements).toEqual(['group']);
  });

  it('a document is named by the SHA-256 of its JSON text, made once per frozen evidence object', () => {
    const e = EVIDENCE[0]!;
    expect(evidenceDoc(e)).toEqual({ text: JSON.stringify(e), digest: `sha256:${createHash('sha256').update(JSON.stringify(e)).digest('hex')}` });
    const frozen = Object.freeze({ ...e });
    expect(evidenceDoc(frozen)).toBe(evidenceDoc(frozen));
    expect(evidenceDoc(frozen).digest).toBe(evidenceDoc(e).digest);
  });

  it('the documents are append-only: update, delete and truncate are refused for every role', async () => {
    const c = calculation(7105n, 'append-only', 0);
    await repo.insertOnce(c, calculationRecordedEvent(c));
    const digest = evidenceDoc(c.rateEvidence).digest;
    for (const sql of [
      `update calculation.rate_evidence_doc set doc = jsonb_set(doc, '{window,rate_bps}', '2000') where digest = $1`,
      `delete from calculation.rate_evidence_doc where digest = $1`,
    ]) await expect(q(sql, [digest]), sql).rejects.toThrow(/append-only/);
    await expect(q(`truncate calculation.rate_evidence_doc cascade`)).rejects.toThrow(/append-only/);
    expect(await q(`select doc from calculation.rate_evidence_doc where digest = $1`, [digest])).toEqual([{ doc: c.rateEvidence }]);
  });

  it('a row holds its evidence inline or names a document, never both nor neither', async () => {
    const c = calculation(7106n, 'one-of-two', 0);
    await repo.insertOnce(c, calculationRecordedEvent(c));
    await expect(q(`update calculation.calculation set rate_evidence_digest = null where id = $1`, [c.id])).rejects.toThrow(/calculation_rate_evidence_one/);
    await expect(q(`update calculation.calculation set rate_evidence = '{}' where id = $1`, [c.id])).rejects.toThrow(/calculation_rate_evidence_one/);
  });

  it('a calculation stored before documents existed (evidence inline) reads, pages and exports as before', async () => {
    const c = calculation(7107n, 'inline', 1);
    await repo.insertOnce(c, calculationRecordedEvent(c));
    // As the row was written before Migration20261129180942: the evidence inline, no document named.
    await q(`update calculation.calculation set rate_evidence = $2::jsonb, rate_evidence_digest = null where id = $1`, [c.id, JSON.stringify(c.rateEvidence)]);
    expect((await repo.owned(7107n, c.id))!.rateEvidence).toEqual(c.rateEvidence);
    expect((await repo.page(7107n, {}, 10))!.rows.map((r) => r.rateEvidence)).toEqual([c.rateEvidence]);
    const exported = [];
    for await (const batch of repo.exportRows(7107n, {}, 10)) exported.push(...batch);
    expect(exported.map((r) => [r.rateReleaseDigest, r.rateWindowDigest])).toEqual([['sha256:release', 'sha256:pinned-7']]);
    // And a row naming its document exports the same digests from it.
    const d = calculation(7107n, 'named', 3);
    await repo.insertOnce(d, calculationRecordedEvent(d));
    const again = [];
    for await (const batch of new CalculationRepository(h.deps.pool).exportRows(7107n, {}, 1)) again.push(...batch);
    expect(again.map((r) => [r.id, r.rateReleaseDigest, r.rateWindowDigest])).toEqual([[c.id, 'sha256:release', 'sha256:pinned-7'], [d.id, 'sha256:release', 'sha256:pinned-7']]);
  });

  it('a row naming a document that is not stored fails closed: no record without its evidence', async () => {
    const c = calculation(7108n, 'dangling', 0);
    await repo.insertOnce(c, calculationRecordedEvent(c));
    await q(`update calculation.calculation set rate_evidence_digest = 'sha256:not-stored' where id = $1`, [c.id]);
    const fresh = new CalculationRepository(h.deps.pool);
    await expect(fresh.owned(7108n, c.id)).rejects.toThrow(/rate evidence document sha256:not-stored is missing/);
    const exported = (async () => {
      for await (const _ of fresh.exportRows(7108n, {}, 10)) void _;
    })();
    await expect(exported).rejects.toThrow(/sha256:not-stored is missing/);
  });
});
