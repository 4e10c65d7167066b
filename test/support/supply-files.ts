import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { entryArgs, NODE, ROOT } from './processes';

/** The CSV header of generated supply-event files (the API's field names). */
export const SUPPLY_CSV_COLUMNS = [
  'event_id', 'event_type', 'original_event_id', 'occurred_at', 'supply_kind', 'customer_type', 'country_of_consumption', 'dispatch_country',
  'supplier_establishment_country', 'currency', 'net_amount_minor', 'vat_amount_minor', 'vat_rate_bps', 'rate_category', 'classification_status',
  'product_reference', 'order_reference', 'source_id',
] as const;

/** Member States of consumption with their standard rate in 2026 (the ledger checks the rate is in force). */
const COUNTRIES: [string, number][] = [['DE', 1900], ['FR', 2000], ['IT', 2200], ['ES', 2100], ['NL', 2100], ['BE', 2100], ['AT', 2000], ['PL', 2300], ['SE', 2500], ['IE', 2300]];

/** half_up(net × bps / 10000), as the ledger checks it. */
function vatOf(net: number, bps: number): number {
  return Math.floor((2 * net * bps + 10_000) / 20_000);
}

/** A valid sale (every 10th a refund of the sale before it, in its country at its rate), as a JSON object with the API's names. */
export function supplyEvent(n: number, prefix: string): Record<string, string | number | null> {
  const net = 1000 + ((n * 7919) % 90_000);
  const refund = n % 10 === 9;
  const [country, bps] = COUNTRIES[(refund ? n - 1 : n) % COUNTRIES.length]!;
  const amount = refund ? -Math.floor(net / 2) : net;
  const vat = refund ? -vatOf(Math.floor(net / 2), bps) : vatOf(net, bps);
  return {
    event_id: `${prefix}-${n}`,
    event_type: refund ? 'refund' : 'sale',
    original_event_id: refund ? `${prefix}-${n - 1}` : null,
    occurred_at: `2026-0${1 + (n % 9)}-${String(1 + (n % 28)).padStart(2, '0')}`,
    supply_kind: 'goods',
    customer_type: 'b2c',
    country_of_consumption: country,
    dispatch_country: 'FR',
    supplier_establishment_country: 'FR',
    currency: 'EUR',
    net_amount_minor: amount,
    vat_amount_minor: vat,
    vat_rate_bps: bps,
    rate_category: 'standard',
    classification_status: 'classified',
    product_reference: n % 3 === 0 ? `SKU "${n % 100}", blue` : `sku-${n % 100}`,
    order_reference: `order-${Math.floor(n / 3)}`,
    source_id: 'erp/main',
  };
}

function csvCell(v: string | number | null): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function supplyCsvLine(e: Record<string, string | number | null>): string {
  return SUPPLY_CSV_COLUMNS.map((c) => csvCell(e[c] ?? null)).join(',');
}

/**
 * Writes `count` generated events as CSV (CRLF) or NDJSON, streaming; `lineFor` may replace the
 * text of any data line (bad lines in tests). Returns the file's path.
 */
export async function writeSupplyFile(
  path: string,
  count: number,
  opts: { prefix: string; format?: 'csv' | 'ndjson'; lineFor?: (n: number, line: string, event: Record<string, string | number | null>) => string },
): Promise<string> {
  const format = opts.format ?? 'csv';
  const out = createWriteStream(path);
  let buf = format === 'csv' ? `${SUPPLY_CSV_COLUMNS.join(',')}\r\n` : '';
  for (let n = 1; n <= count; n++) {
    const e = supplyEvent(n, opts.prefix);
    const line = format === 'csv' ? supplyCsvLine(e) : JSON.stringify(e);
    buf += `${opts.lineFor ? opts.lineFor(n, line, e) : line}${format === 'csv' ? '\r\n' : '\n'}`;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
  return path;
}

export type ImportRun = { code: number | string; json: any; stdout: string; stderr: string };

/**
 * `admin supply import` as its own process, whatever its exit code (1 = some lines rejected).
 * `env` is the whole configuration the child sees (nothing is inherited from the runner's).
 */
export async function runSupplyImportCli(args: string[], env: Record<string, string | undefined>, timeoutMs = 180_000): Promise<ImportRun> {
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn' };
  const child = spawn(NODE, [...entryArgs('admin'), 'supply', 'import', ...args], { cwd: ROOT, env: { ...base, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, timeoutMs);
  // 'close' (stdio read to the end), not 'exit', which can come before the last output.
  const [code, signal] = (await once(child, 'close')) as [number | null, string | null];
  clearTimeout(timer);
  let json: any;
  try {
    json = stdout.trim() ? JSON.parse(stdout) : undefined;
  } catch {
    json = undefined;
  }
  return { code: code ?? signal ?? 'unknown', json, stdout, stderr };
}
