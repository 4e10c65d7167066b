import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAMES, type ServiceName } from '@vat/platform/config';
import { freshDatabase, IN_CI, REDIS_TEST_URL, requireBackends } from '../../test/support/env';
import { freePort, http, NATS_SERVER, runAdmin, serviceUrlEnv, spawnMain, startPrivateNats, stopAll, waitFor, waitReady, type PrivateNats } from '../../test/support/processes';
import { buildDashboard } from '../scripts/build';

/** The Debian `chromium` package (`.ci/run` installs it); Playwright never downloads a browser here. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Screenshots of every page, kept as test artifacts (gitignored). */
const ARTIFACTS = join(import.meta.dirname, '..', 'test-artifacts');
const PERIOD = '2026-Q3';

/**
 * Q3 2026 of a DE-identified seller, seeded through the REST API. Hand-computed return (EUR cents):
 *   2a FR services 20 %: taxable 1,234.56, VAT 246.91            (e1)
 *   2b IT goods 22 % dispatched from DE: taxable 500.00, VAT 110.00 (e4)
 *   correction FR for 2026-Q2: refund of e5, VAT -10.00            (e6)
 *   excluded: e2 (B2B, exempt rate: needs review), e3 (domestic DE supply: informational)
 *   taxable 1,234.56 + 500.00 = 1,734.56; VAT 246.91 + 110.00 = 356.91; payable 356.91 - 10.00 = 346.91
 *   FR balance 246.91 - 10.00 = 236.91; IT balance 110.00
 */
function seedEvents() {
  const base = { event_type: 'sale', supply_kind: 'services', customer_type: 'b2c', country_of_consumption: 'FR', supplier_establishment_country: 'DE', currency: 'EUR', rate_category: 'standard', classification_status: 'classified' };
  return [
    { ...base, event_id: 'e1', occurred_at: '2026-07-10T10:00:00Z', net_amount_minor: 123456, vat_amount_minor: 24691, vat_rate_bps: 2000 },
    { ...base, event_id: 'e2', occurred_at: '2026-07-11T10:00:00Z', customer_type: 'b2b', net_amount_minor: 10000, vat_amount_minor: 0, vat_rate_bps: 0, rate_category: 'exempt' },
    { ...base, event_id: 'e3', occurred_at: '2026-07-12T10:00:00Z', country_of_consumption: 'DE', net_amount_minor: 10000, vat_amount_minor: 1900, vat_rate_bps: 1900 },
    { ...base, event_id: 'e4', occurred_at: '2026-08-12T10:00:00Z', supply_kind: 'goods', country_of_consumption: 'IT', dispatch_country: 'DE', net_amount_minor: 50000, vat_amount_minor: 11000, vat_rate_bps: 2200 },
    { ...base, event_id: 'e5', occurred_at: '2026-04-12T10:00:00Z', net_amount_minor: 20000, vat_amount_minor: 4000, vat_rate_bps: 2000 },
    { ...base, event_id: 'e6', event_type: 'refund', original_event_id: 'e5', occurred_at: '2026-08-15T10:00:00Z', net_amount_minor: -5000, vat_amount_minor: -1000, vat_rate_bps: 2000 },
  ];
}

/** Text as shown, with the locale's no-break spaces (1.734,56\u00a0€) as plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

/** Opens a page of the dashboard and waits until its heading is shown and nothing is loading. */
async function openAt(p: Page, url: string, heading: string | RegExp): Promise<void> {
  await p.goto(url);
  await p.getByRole('heading', { level: 1, name: heading }).waitFor();
  await p.locator('.loading').first().waitFor({ state: 'detached' });
}

/** The rows of the Article 59c chart's table alternative: date, change, cumulative, events, note. */
async function chartRows(p: Page): Promise<string[][]> {
  await p.locator('.chart-data summary').first().click();
  const rows = await p.locator('.chart-data tbody tr').allInnerTexts();
  return rows.map((r) => plain(r).split('\t').map((c) => c.trim()));
}

/** Signs in with a key on the sign-in page; waits for the first page after it. */
async function signIn(p: Page, url: string, key: string): Promise<void> {
  await p.goto(url);
  await p.getByLabel('API key').fill(key);
  await p.getByRole('button', { name: 'Sign in' }).click();
  await p.getByRole('heading', { level: 1, name: /Union OSS return/ }).waitFor();
}

let built: Promise<unknown> | undefined;
/** Builds the dashboard once for this file (each mode's gateway reads dashboard/dist/ at start). */
const buildOnce = () => (built ??= buildDashboard());

const backends = await requireBackends(['postgres', 'redis']);
const natsBinary = existsSync(NATS_SERVER);
if (!natsBinary && IN_CI) throw new Error(`CI=true and no nats-server at ${NATS_SERVER}`);

/** Words of every control that changes something; a read-only session must show none of them. */
const WRITE_ACTIONS = /^(lock|mark filed|create registration|end \d|exclude \d|apply|dismiss|validate|archive|mark read)/i;

describe('dashboard in a browser (npm start, embedded PGlite; one server, one Chromium)', { timeout: 300_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vat-dashboard-e2e-'));
  let base: string;
  let full: string;
  let readOnly: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const cspViolations: string[] = [];

  async function shot(name: string): Promise<void> {
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  /** axe-core over the page as shown: no serious or critical violation. */
  async function accessible(p: Page, name: string): Promise<void> {
    await p.waitForLoadState('networkidle');
    const results = await new AxeBuilder({ page: p }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${name}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  const open = (p: Page, path: string, heading: string | RegExp) => openAt(p, `${base}${path}`, heading);

  beforeAll(async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} missing: apt-get install -y chromium (.ci/run does it)`).toBe(true);
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    await buildOnce();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const server = spawnMain('all', { DATA_DIR: dataDir, PORT: String(port) });
    const [, ready] = await Promise.all([chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }).then((b) => (browser = b)), waitReady(base, [server], 240_000)]);
    expect(ready.json.status).toBe('ready');
    full = (await runAdmin(['keys', 'create', '--account', 'dashboard', '--scope', 'full'], { DATA_DIR: dataDir })).json.key;
    readOnly = (await runAdmin(['keys', 'create', '--account', 'dashboard', '--scope', 'read-only'], { DATA_DIR: dataDir })).json.key;
    const headers = { 'x-api-key': full };
    const reg = await http('POST', `${base}/v1/tax-registrations`, { headers, body: { scheme_type: 'union_oss', member_state_identification: 'DE', vat_registration_number: 'DE123456789', effective_from: '2025-01-01', status: 'active' } });
    expect(reg.status, reg.text).toBe(201);
    const events = await http('POST', `${base}/v1/supply-events`, { headers, body: { events: seedEvents() } });
    expect(events.status, events.text.slice(0, 300)).toBe(201);
    // The quarter's projection catches up with the ledger asynchronously.
    for (let i = 0; ; i++) {
      const s = await http('GET', `${base}/v1/reports/oss-quarterly-summary?period=${PERIOD}`, { headers });
      if (s.json?.total_source_event_count === 5) break;
      if (i > 200) throw new Error(`projection did not catch up: ${s.text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('console', (m) => {
      if (/Content.Security.Policy/i.test(m.text())) cspViolations.push(m.text());
    });
  }, 360_000);

  afterAll(async () => {
    await browser?.close();
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('/ redirects to the dashboard, served with a strict CSP and nothing inline', async () => {
    const root = await fetch(`${base}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/app/');
    const html = await fetch(`${base}/app/quarter?period=${PERIOD}`);
    expect(html.status).toBe(200);
    const csp = html.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const text = await html.text();
    expect(text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // every script is a file of this origin
    expect(text).not.toMatch(/https?:\/\//); // no CDN
  });

  it('signs in with a key: the key is kept nowhere in the browser, the cookie is HttpOnly', async () => {
    await signIn(page, `${base}/`, full);
    const stored = await page.evaluate<string>('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie })');
    expect(stored).not.toContain(full.slice(4, 20));
    expect(JSON.parse(stored).cookie).toBe(''); // HttpOnly: invisible to scripts
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'vat_session', httpOnly: true, sameSite: 'Strict' });
    expect(cookie!.value).not.toContain(full);
  });

  it('opens the seeded quarter: totals, balances, rows and corrections in the return currency with de-DE separators', async () => {
    await open(page, `/app/quarter?period=${PERIOD}`, `Union OSS return ${PERIOD}`);
    const totals = page.locator('.totals');
    await expect.poll(async () => plain(await totals.innerText())).toContain('1.734,56 €');
    const text = plain(await page.locator('main').innerText());
    for (const figure of ['356,91 €', '-10,00 €', '346,91 €', '236,91 €', '110,00 €', '1.234,56 €', '246,91 €', '500,00 €', '2026-Q2']) expect(text).toContain(figure);
    expect(text).toContain('2026-07-01 to 2026-09-30');
    await shot('quarter-preview');
    await accessible(page, 'quarter');
  });

  it('follows a warning with its count to the excluded events behind it', async () => {
    await page.getByRole('link', { name: /unsupported_rate_category_excluded\s*1 event/ }).click();
    await page.getByRole('heading', { level: 1, name: /Events of 2026-Q3 — unsupported_rate_category_excluded/ }).waitFor();
    expect(page.url()).toContain('reason=unsupported_rate_category_excluded');
    expect(page.url()).toContain('disposition=excluded');
    const rows = page.locator('table tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    const row = plain(await rows.first().innerText());
    expect(row).toContain('e2');
    expect(row).toContain('excluded');
    expect(row).toContain('100,00 €');
    await shot('quarter-events');
    await accessible(page, 'events');
    await page.reload(); // a bookmarkable URL
    await page.getByRole('heading', { level: 1, name: /unsupported_rate_category_excluded/ }).waitFor();
  });

  it('locks the quarter after a confirmation naming what will be sealed, marks it filed, downloads every artifact', async () => {
    await open(page, `/app/quarter?period=${PERIOD}`, `Union OSS return ${PERIOD}`);
    await page.getByRole('button', { name: `Lock ${PERIOD}…` }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(async () => plain(await dialog.innerText())).toContain('346,91 €');
    const sealed = plain(await dialog.innerText());
    for (const fact of [PERIOD, 'DE', 'registration 1', '3 included', '2 excluded', '2 Member States']) expect(sealed).toContain(fact);
    await shot('quarter-lock-confirmation');
    await accessible(page, 'lock dialog');
    await dialog.getByRole('button', { name: `Lock and seal ${PERIOD}` }).click();
    await page.getByRole('heading', { name: 'Stored artifacts' }).waitFor();
    await page.getByRole('button', { name: 'Mark filed' }).click();
    await page.locator('.lock .badge.filed').waitFor();
    expect(await page.locator('.lock').innerText()).toMatch(/filed \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    await shot('quarter-filed');

    const locked = (await http('GET', `${base}/v1/reports/locked-return-periods/union-oss?period=${PERIOD}`, { headers: { 'x-api-key': full } })).json.items[0];
    expect(locked.status).toBe('filed');
    const links = page.locator('.downloads a');
    expect(await links.count()).toBe(locked.exports.length);
    expect(locked.exports.length).toBeGreaterThanOrEqual(2);
    for (const x of locked.exports as { filename: string; sha256: string; format: string }[]) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: `Download ${x.filename}` }).click()]);
      const file = join(ARTIFACTS, x.filename);
      await download.saveAs(file);
      const bytes = readFileSync(file);
      expect(createHash('sha256').update(bytes).digest('hex'), x.filename).toBe(x.sha256);
      if (x.format === 'pdf') expect(execFileSync('pdftotext', ['-layout', file, '-']).toString('utf8')).toMatch(/346[.,]91/);
      // The BZSt upload file (first line `#v2.0`) has no period column by design (the portal asks for the quarter): it carries the return's VAT amounts.
      if (x.format === 'csv' && bytes.toString('utf8').startsWith('#v2.0')) expect(bytes.toString('utf8'), x.filename).toMatch(/,246\.91\r?\n[\s\S]*,110\.00\r?\n/);
      else if (x.format === 'csv') expect(bytes.toString('utf8'), x.filename).toContain(PERIOD);
    }
  });

  it('registrations: the service refusal is shown next to the field it concerns; cleanup status is listed', async () => {
    await open(page, '/app/registrations', 'Registrations');
    await page.getByLabel('Member State of identification').fill('de');
    await page.getByLabel('VAT or IOSS number').fill('DE123456789');
    await page.getByLabel('Effective from').fill('2026-01-01');
    await page.getByRole('button', { name: 'Create registration' }).click();
    const invalid = page.locator('[aria-invalid="true"]');
    await invalid.first().waitFor();
    expect(await invalid.first().getAttribute('id')).toBe('reg_member_state_identification');
    expect(await page.locator('.field-error').innerText()).toContain('invalid_member_state_identification');
    expect(await page.locator('table').innerText()).toContain('counted');
    await shot('registrations');
    await accessible(page, 'registrations');
  });

  it.each([
    ['/app/ioss?period=2026-Q3', 'IOSS months of 2026-Q3'],
    ['/app/article-59c', 'Article 59c threshold'],
    ['/app/corrections', 'Correction reviews'],
    ['/app/product-codes', 'Product-code assignments'],
    ['/app/calendar', 'Filing calendar'],
    ['/app/notifications', 'Notifications'],
  ] as const)('%s loads, passes axe-core, screenshot', async (path, heading) => {
    await open(page, path, heading);
    await shot(path.slice(5).split('?')[0]!);
    await accessible(page, path);
  });

  it('the filing calendar lists each covered quarter with its due date and status (the quarter filed above is filed)', async () => {
    await open(page, '/app/calendar', 'Filing calendar');
    const row = page.locator('table tr', { has: page.getByRole('link', { name: '2026-Q3', exact: true }) });
    // 2026-Q3 is due on the last day of the month after the quarter: 2026-10-31.
    expect(plain(await row.innerText())).toMatch(/2026-Q3\s+union oss\s+2026-10-31\s+filed/);
  });

  it('the Article 59c chart draws the daily series against the threshold, with a table alternative; the skip link comes first', async () => {
    // The Article 59c chart: the year's cumulative counted amount by tax-point day (e2 B2B and e3 domestic are excluded):
    //   2026-04-12 e5  +200.00 →   200.00
    //   2026-07-10 e1 +1,234.56 → 200.00 + 1,234.56 = 1,434.56
    //   2026-08-12 e4  +500.00 → 1,434.56 + 500.00 = 1,934.56
    //   2026-08-15 e6  −50.00 (refund of e5) → 1,934.56 − 50.00 = 1,884.56, against 10,000.00: not crossed
    await open(page, '/app/article-59c', 'Article 59c threshold');
    expect(plain(await page.locator('figure figcaption').innerText())).toContain('1.884,56 € against the threshold 10.000,00 €, not crossed; 4 days with a change');
    expect(await page.locator('figure svg circle.point').count()).toBe(4);
    expect(await page.locator('figure svg circle.crossing').count()).toBe(0);
    expect(await chartRows(page)).toEqual([
      ['2026-04-12', '200,00 €', '200,00 €', '1', ''],
      ['2026-07-10', '1.234,56 €', '1.434,56 €', '1', ''],
      ['2026-08-12', '500,00 €', '1.934,56 €', '1', ''],
      ['2026-08-15', '-50,00 €', '1.884,56 €', '1', ''],
    ]);
    await shot('article-59c-table');
    await accessible(page, 'article-59c table');
    await open(page, '/app/article-59c', 'Article 59c threshold');
    // Keyboard: after navigation the page heading has focus (Tab continues in the content); the skip link is the first stop of the page.
    expect(await page.evaluate<string>('document.activeElement?.tagName')).toBe('H1');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<boolean>("document.querySelector('main').contains(document.activeElement)")).toBe(true);
    expect(await page.evaluate<string>("document.querySelector('a[href], button, input, select')?.textContent")).toBe('Skip to content');
  });

  it('is usable 360 px wide: nothing but the tables scrolls sideways', async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    await open(page, `/app/quarter?period=${PERIOD}`, `Union OSS return ${PERIOD}`);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await shot('quarter-360px');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('a read-only key sees no write action on any page', async () => {
    const ro = await browser.newContext({ locale: 'de-DE' });
    const p = await ro.newPage();
    // Signed in means the session's header is shown (the sign-in page itself mentions "read-only": waiting for that
    // word alone raced the sign-in request, and the next navigation could arrive without the cookie).
    await signIn(p, `${base}/app/`, readOnly);
    expect(await p.locator('header .who').innerText()).toMatch(/account \d+ · read-only/);
    for (const [path, heading] of [
      [`/app/quarter?period=${PERIOD}`, `Union OSS return ${PERIOD}`],
      [`/app/quarter?period=2026-Q2`, 'Union OSS return 2026-Q2'],
      ['/app/registrations', 'Registrations'],
      ['/app/corrections', 'Correction reviews'],
      ['/app/notifications', 'Notifications'],
    ] as const) {
      await open(p, path, heading);
      const buttons = await p.getByRole('button').allInnerTexts();
      expect(buttons.filter((b) => WRITE_ACTIONS.test(b.trim())), path).toEqual([]);
      expect(await p.locator('form.create, form.filed').count(), path).toBe(0);
    }
    await p.screenshot({ path: join(ARTIFACTS, 'read-only-quarter.png'), fullPage: true });
    await ro.close();
  });

  it('signs out: back to sign-in, and the old cookie no longer works', async () => {
    const [cookie] = await context.cookies();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    const reused = await http('GET', `${base}/v1/sessions/current`, { headers: { cookie: `vat_session=${cookie!.value}` } });
    expect(reused.status).toBe(401);
    await page.reload();
    await page.getByLabel('API key').waitFor();
    await shot('sign-in');
    await accessible(page, 'sign-in');
    expect(cspViolations).toEqual([]);
  });
});

/**
 * The other run mode: every service its own process on PostgreSQL, a private JetStream nats-server, the
 * gateway serving the dashboard. One start, a few page visits: sign in, the quarter, the Article 59c chart
 * (with a crossing), sign out.
 */
describe.skipIf(!backends.ok || !natsBinary)('dashboard in a browser, distributed mode (5 services + gateway as processes, PostgreSQL, NATS)', { timeout: 240_000 }, () => {
  let nats: PrivateNats;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let base: string;
  let key: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} missing: apt-get install -y chromium (.ci/run does it)`).toBe(true);
    mkdirSync(ARTIFACTS, { recursive: true });
    await buildOnce();
    [nats, db] = await Promise.all([startPrivateNats(), freshDatabase({ prefix: 'vat_dash' })]);
    const ports = {} as Record<ServiceName, number>;
    for (const name of SERVICE_NAMES) ports[name] = await freePort([1000]);
    const gatewayPort = await freePort();
    base = `http://127.0.0.1:${gatewayPort}`;
    const env = { DATABASE_URL: db.url, NATS_URL: nats.url, REDIS_URL: REDIS_TEST_URL, INTERNAL_TOKEN: `dash-${randomBytes(12).toString('hex')}`, DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'), OUTBOX_POLL_MS: '100', ...serviceUrlEnv(ports) };
    const procs = SERVICE_NAMES.map((name) => spawnMain(name, { ...env, SERVICE_PORT: String(ports[name]) }));
    procs.push(spawnMain('gateway', { ...env, PORT: String(gatewayPort) }));
    [browser] = await Promise.all([chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }), waitReady(base, procs, 180_000)]);
    key = (await runAdmin(['keys', 'create', '--account', 'dashboard-dist', '--scope', 'full'], { DATABASE_URL: db.url })).json.key;
    const headers = { 'x-api-key': key };
    const reg = await http('POST', `${base}/v1/tax-registrations`, { headers, body: { scheme_type: 'union_oss', member_state_identification: 'DE', vat_registration_number: 'DE123456789', effective_from: '2025-01-01', status: 'active' } });
    expect(reg.status, reg.text).toBe(201);
    // The first file's quarter plus e7, FR services 9,000.00 (VAT 20 %: 1,800.00), which crosses the Article 59c threshold.
    const e7 = { ...seedEvents()[0]!, event_id: 'e7', occurred_at: '2026-09-01T10:00:00Z', net_amount_minor: 900000, vat_amount_minor: 180000 };
    const events = await http('POST', `${base}/v1/supply-events`, { headers, body: { events: [...seedEvents(), e7] } });
    expect(events.status, events.text.slice(0, 300)).toBe(201);
    // Both projections catch up through JetStream.
    await waitFor('the quarter and the threshold status reflect the 7 events', async () => {
      const [q, t] = await Promise.all([
        http('GET', `${base}/v1/reports/oss-quarterly-summary?period=${PERIOD}`, { headers }),
        http('GET', `${base}/v1/compliance/threshold-status`, { headers }),
      ]);
      return q.json?.total_source_event_count === 6 && t.json?.ledger_position === 7 && t.json?.ledger_head === 7;
    }, { timeoutMs: 60_000, intervalMs: 250 });
    page = await (await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 900 } })).newPage();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await stopAll();
    await nats?.stop().catch(() => undefined);
    await db?.drop().catch(() => undefined);
  }, 60_000);

  it('signs in, opens the quarter and the Article 59c chart with its crossing, signs out', async () => {
    await signIn(page, `${base}/`, key);
    await openAt(page, `${base}/app/quarter?period=${PERIOD}`, `Union OSS return ${PERIOD}`);
    // Taxable 1,734.56 (the first file's quarter) + 9,000.00 (e7) = 10,734.56; VAT 356.91 + 1,800.00 = 2,156.91.
    await expect.poll(async () => plain(await page.locator('.totals').innerText())).toContain('10.734,56 €');
    expect(plain(await page.locator('.totals').innerText())).toContain('2.156,91 €');
    await page.screenshot({ path: join(ARTIFACTS, 'distributed-quarter.png'), fullPage: true });

    // 1,884.56 (the first file's series) + 9,000.00 = 10,884.56 > 10,000.00 on 2026-09-01: crossed by e7 (cumulative 10,884.56).
    await openAt(page, `${base}/app/article-59c`, 'Article 59c threshold');
    expect(plain(await page.locator('figure figcaption').innerText())).toContain('10.884,56 € against the threshold 10.000,00 €, crossed on 2026-09-01 (cumulative 10.884,56 €); 5 days with a change');
    expect(await page.locator('figure svg circle.point').count()).toBe(5);
    expect(await page.locator('figure svg circle.crossing').count()).toBe(1);
    expect((await chartRows(page)).at(-1)).toEqual(['2026-09-01', '9.000,00 €', '10.884,56 €', '1', 'threshold crossed by event e7']);
    await page.screenshot({ path: join(ARTIFACTS, 'distributed-article-59c.png'), fullPage: true });

    const [cookie] = await page.context().cookies();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect((await http('GET', `${base}/v1/sessions/current`, { headers: { cookie: `vat_session=${cookie!.value}` } })).status).toBe(401);
  });
});
