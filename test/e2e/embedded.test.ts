import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTotpCode } from '../support/totp';
import { entryScript, freePort, http, runAdmin, spawnMain, stopAll, stopProcess, waitFor, waitReady, type Proc } from '../support/processes';
import { tcpListenPorts } from '../support/tcp-listeners';

/**
 * The real `npm start` path: `tsx deploy/src/main.ts all` as a child process on embedded PGlite in
 * DATA_DIR, with the admin CLI as a separate process next to it.
 */
describe('npm start (embedded PGlite) as a real process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vat-e2e-embedded-'));
  let port: number;
  let base: string;
  let server: Proc | undefined;
  const env = () => ({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' });
  const admin = (args: string[]) => runAdmin(args, { DATA_DIR: dataDir });
  const timings: Record<string, number> = {};
  let fullKey: { key: string; id: string };
  let laterKey: { key: string; id: string };
  let calculationId: string;

  beforeAll(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
    console.log(`[embedded e2e] first start to /ready: ${timings.firstStartMs} ms; restart to /ready: ${timings.restartMs} ms`);
  }, 60_000);

  it('first start (with the reference data import) is ready within 60 s', async () => {
    const t0 = Date.now();
    server = spawnMain('all', env());
    const ready = await waitReady(base, [server], 60_000);
    timings.firstStartMs = Date.now() - t0;
    console.log(`[embedded e2e] first start: /ready 200 after ${timings.firstStartMs} ms`);
    expect(ready.json.status).toBe('ready');
    expect(timings.firstStartMs).toBeLessThan(60_000);
    expect((await http('GET', `${base}/health`)).json).toEqual({ status: 'ok' });
    // The running server advertises its database's Unix socket (inside DATA_DIR) for operator commands.
    const runtimeFile = join(dataDir, 'runtime.json');
    expect(JSON.parse(readFileSync(runtimeFile, 'utf8'))).toEqual({ pid: server.pid, socketDir: join(dataDir, 'run') });
    expect(statSync(runtimeFile).mode & 0o777).toBe(0o600);
    expect(lstatSync(join(dataDir, 'run', '.s.PGSQL.5432')).isSocket()).toBe(true);
    // The gateway's HTTP port is the only TCP port the process listens on.
    expect(tcpListenPorts(server.pid)).toEqual([port]);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  }, 75_000);

  it('serves the API docs: the UI page, its static assets and logo (read from node_modules by the bundled plugins), the OpenAPI document', async () => {
    // From the bundle (deploy/bin/main.mjs) whenever it is fresh: @fastify/swagger-ui is bundled and finds its files
    // through its own directory, rewritten to node_modules (deploy/bundle.mjs, RELOCATED).
    let url = '/docs';
    let page = await fetch(`${base}${url}`, { redirect: 'manual' });
    for (let hops = 0; page.status >= 300 && page.status < 400 && hops < 5; hops++) {
      url = new URL(page.headers.get('location')!, `${base}${url}`).pathname;
      page = await fetch(`${base}${url}`, { redirect: 'manual' });
    }
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const css = /href="([^"]*swagger-ui\.css)"/.exec(html)?.[1];
    expect(css, html).toBeDefined();
    const asset = await fetch(new URL(css!, `${base}${url}`));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/^text\/css/);
    expect((await asset.text()).length).toBeGreaterThan(10_000);
    const logo = await fetch(`${base}/docs/static/logo.svg`);
    expect(logo.status).toBe(200);
    expect(await logo.text()).toMatch(/<svg/);
    const doc = await fetch(`${base}/openapi.json`);
    expect(doc.status).toBe(200);
    expect(((await doc.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });

  it('the admin CLI creates a key in the running server\'s database while it runs', async () => {
    const created = await admin(['keys', 'create', '--account', 'e2e-embedded', '--scope', 'full', '--label', 'e2e']);
    expect(created.json.key).toMatch(/^vat_[a-z0-9]{16}_[A-Za-z0-9_-]{43}$/);
    expect(created.json.scope).toBe('full');
    fullKey = { key: created.json.key, id: created.json.id };
    const list = await http('GET', `${base}/v1/transactions`, { headers: { 'x-api-key': fullKey.key } });
    expect(list.status, list.text).toBe(200);
    expect(list.json.items).toEqual([]);
    expect(server!.exited()).toBe(false);
  }, 60_000);

  it('stores a calculation', async () => {
    const calc = await http('POST', `${base}/v1/vat/calculate`, {
      headers: { 'x-api-key': fullKey.key },
      body: { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 11900, price_includes_vat: true, transaction_date: '2025-03-01' },
    });
    expect(calc.status, calc.text).toBe(200);
    expect(calc.json.vat_rate_bps).toBe(1900);
    expect(calc.json.vat_amount_minor).toBe(1900);
    expect(calc.json.net_amount_minor).toBe(10000);
    expect(calc.json.calculation_id).toBeTruthy();
    calculationId = calc.json.calculation_id;
    const list = await http('GET', `${base}/v1/transactions`, { headers: { 'x-api-key': fullKey.key } });
    expect(list.status).toBe(200);
    expect(list.json.items.map((t: { id: string }) => t.id)).toContain(calculationId);
    // The in-process usage consumer counted it.
    const keys = await waitFor('usage count 1', async () => {
      const l = await admin(['keys', 'list', '--account', 'e2e-embedded']);
      const k = l.json.find((x: { id: string }) => x.id === fullKey.id);
      return k?.calculation_count === '1' ? l.json : undefined;
    }, { timeoutMs: 20_000, intervalMs: 500 });
    expect(keys).toHaveLength(1);
  }, 60_000);

  it('the admin CLI activates a treatment release while it runs (four eyes, TOTP); v2 then decides', async () => {
    await admin(['operators', 'create', '--name', 'alice']);
    const bob = (await admin(['operators', 'create', '--name', 'bob'])).json.secret as string;
    const imported = await admin(['treatments', 'import', '--file', 'seeds/treatment-releases/eu27-sales-vat-2026-11.json', '--operator', 'alice']);
    expect(imported.json.status).toBe('candidate');
    // A code with enough of its 30-second step left that it is still current when the CLI checks it.
    const activated = await admin(['treatments', 'activate', '--id', imported.json.id, '--operator', 'bob', '--totp', await freshTotpCode(bob)]);
    expect(activated.json).toMatchObject({ status: 'active', activated_by: 'bob' });
    const v2 = await http('POST', `${base}/v2/vat/calculate`, {
      headers: { 'x-api-key': fullKey.key, 'idempotency-key': 'embedded-v2-1' },
      body: { country: 'DE', currency: 'EUR', amount_minor: 11900, price_includes_vat: true, transaction_date: '2026-03-01', tax_class_id: 'standard', treatment_context: { customer_type: 'b2c', supplier_establishment_country: 'DE', dispatch_country: 'DE', destination_country: 'DE' } },
    });
    expect(v2.status, v2.text).toBe(200);
    expect(v2.json.status).toBe('partial');
    expect(v2.json.components[0]).toMatchObject({ kind: 'sales_vat', amount_minor: 1900, net_amount_minor: 10000 });
  }, 90_000);

  it('a key without the needed scope gets 403', async () => {
    const calcOnly = await admin(['keys', 'create', '--account', 'e2e-embedded', '--scope', 'calculate-only']);
    const res = await http('GET', `${base}/v1/transactions`, { headers: { 'x-api-key': calcOnly.json.key } });
    expect(res.status, res.text).toBe(403);
    expect(res.json.error).toBe('insufficient_scope');
    const readOnly = await admin(['keys', 'create', '--account', 'e2e-embedded', '--scope', 'read-only']);
    const calc = await http('POST', `${base}/v1/vat/calculate`, {
      headers: { 'x-api-key': readOnly.json.key },
      body: { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 100, price_includes_vat: true },
    });
    expect(calc.status, calc.text).toBe(403);
  }, 60_000);

  it('revoking a key with the CLI locks it out (401) within about 3 s', async () => {
    laterKey = (await admin(['keys', 'create', '--account', 'e2e-embedded', '--scope', 'full'])).json;
    // Warm the gateway's key cache so revocation has to get past it.
    expect((await http('GET', `${base}/v1/transactions`, { headers: { 'x-api-key': fullKey.key } })).status).toBe(200);
    const tCli = Date.now();
    const revoked = await admin(['keys', 'revoke', '--id', fullKey.id]);
    expect(revoked.json).toEqual({ id: fullKey.id, revoked: true });
    const t0 = Date.now();
    await waitFor('401 after revoke', async () => {
      const r = await http('GET', `${base}/v1/transactions`, { headers: { 'x-api-key': fullKey.key } });
      return r.status === 401 ? r : undefined;
    }, { timeoutMs: 5000, intervalMs: 100 });
    const ms = Date.now() - t0;
    console.log(`[embedded e2e] revoked key refused ${ms} ms after the CLI returned (${Date.now() - tCli} ms after it was started)`);
    expect(ms).toBeLessThanOrEqual(3000);
    // Other keys are unaffected.
    expect((await http('GET', `${base}/v1/transactions`, { headers: { 'x-api-key': laterKey.key } })).status).toBe(200);
  }, 60_000);

  it('SIGTERM stops it cleanly; a restart on the same DATA_DIR is ready again and the data survived', async () => {
    const code = await stopProcess(server!, 'SIGTERM', 20_000);
    expect(code, server!.output()).toBe(0);
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
    const t0 = Date.now();
    server = spawnMain('all', { ...env(), LOG_LEVEL: 'info' });
    const ready = await waitReady(base, [server], 60_000);
    timings.restartMs = Date.now() - t0;
    // The compiled start opened the database on its own thread before the main code loaded (deploy/src/prestart.ts).
    const opened = server.output().split('\n').filter((l) => l.includes('"embedded PostgreSQL (PGlite) started"')).map((l) => JSON.parse(l) as { early?: boolean });
    expect(opened.map((l) => l.early), server.output()).toEqual([entryScript('main')[0] === 'deploy/bin/main.mjs']);
    console.log(`[embedded e2e] restart: /ready 200 after ${timings.restartMs} ms`);
    expect(ready.json.status).toBe('ready');
    const list = await http('GET', `${base}/v1/transactions`, { headers: { 'x-api-key': laterKey.key } });
    expect(list.status, list.text).toBe(200);
    expect(list.json.items.map((t: { id: string }) => t.id)).toContain(calculationId);
    const one = await http('GET', `${base}/v1/transactions/${calculationId}`, { headers: { 'x-api-key': laterKey.key } });
    expect(one.status, one.text).toBe(200);
    // The revoked key stays revoked.
    expect((await http('GET', `${base}/v1/transactions`, { headers: { 'x-api-key': fullKey.key } })).status).toBe(401);
    const code2 = await stopProcess(server, 'SIGTERM', 20_000);
    expect(code2, server.output()).toBe(0);
  }, 90_000);

  it('without npm start running, the admin CLI opens DATA_DIR itself', async () => {
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
    const list = await admin(['keys', 'list', '--account', 'e2e-embedded']);
    expect(list.json.map((k: { id: string }) => k.id)).toContain(laterKey.id);
    expect(existsSync(join(dataDir, 'run', '.s.PGSQL.5432'))).toBe(false);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  }, 60_000);
});
