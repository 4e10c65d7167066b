import type pg from 'pg';
import { expect } from 'vitest';

/** Shared by the report suites (Union OSS, filing-prep): fixtures and assertions over REST. */
export type Json = Record<string, any>;
export type Res = { statusCode: number; body: string; rawPayload: Buffer; headers: Record<string, unknown>; json(): any };

export { servicesSale } from '../../test/support/supply-fixtures';

export function expectError(res: Res, status: number, code: string): Json {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as Json;
  expect(body.error, res.body).toBe(code);
  expect(typeof body.detail).toBe('string');
  return body;
}

export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting for the projection');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until compliance-reports' projection of the account is at the ledger head. */
export async function projectionCaughtUp(db: pg.Pool, accountId: string): Promise<void> {
  await waitUntil(async () => {
    const head = (await db.query('select sequence::text as s from ledger.ledger_head where account_id = $1', [accountId])).rows[0]?.s ?? '0';
    const applied = (await db.query('select applied::text as s from compliance_reports.supply_projection_position where account_id = $1', [accountId])).rows[0]?.s ?? '0';
    return head === applied;
  });
}
