/**
 * `npm run check:prism`: Stoplight Prism, a third-party OpenAPI validator, in front of the running service
 * (`npm start`'s embedded mode on a temporary DATA_DIR). Valid and invalid requests go to every operation
 * of docs/openapi.json through `prism proxy`; every answer Prism finds undocumented (status) or
 * different from its schema is listed, and the check exits 1 unless there are none (issue 20).
 *
 * Prism runs without `--errors`: with it, Prism answers a request it finds invalid itself (422) instead of
 * forwarding it, so the service's answers to invalid requests would never be checked. Its violation
 * report (the `sl-violations` header of each answer) is read instead.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalVies } from '../support/vies-server';
import { freePort, GiveUp, NODE, ROOT, spawnMain, spawnProcess, stopProcess, tcpOpen, waitFor, waitReady, type Proc } from '../support/processes';
import { invalidRequests } from './invalid-requests';
import { provision } from './provision';
import { isRequestViolation, isResponseMismatch, isUndocumentedStatus, operationsOf, ProxyClient, type OpenApi, type Sent } from './proxy-client';
import { runScenario } from './scenario';

const DOCUMENT = join(ROOT, 'docs/openapi.json');
const PRISM = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');

const log = (line: string) => process.stdout.write(`[prism check] ${line}\n`);

type Problem = { sent: Sent; what: string };

/** Every way a request failed the check. */
function problemsOf(sent: Sent[]): Record<string, Problem[]> {
  const out: Record<string, Problem[]> = { undocumented: [], mismatch: [], validRefused: [], serverError: [], byPrism: [], unexpected: [] };
  for (const s of sent) {
    const v = s.violations;
    for (const x of v.filter(isUndocumentedStatus)) out.undocumented!.push({ sent: s, what: x.message });
    for (const x of v.filter(isResponseMismatch)) out.mismatch!.push({ sent: s, what: `${x.location.join('.')}: ${x.message}` });
    if (s.kind === 'valid') for (const x of v.filter(isRequestViolation)) out.validRefused!.push({ sent: s, what: `${x.location.join('.')}: ${x.message}` });
    if (s.status >= 500) out.serverError!.push({ sent: s, what: `answered ${s.status}` });
    if (s.byPrism) out.byPrism!.push({ sent: s, what: `Prism answered ${s.status} itself (not forwarded)` });
    else if (!s.expected(s.status)) out.unexpected!.push({ sent: s, what: `answered ${s.status}: ${s.excerpt}` });
  }
  return out;
}

const pad = (s: string | number, n: number) => String(s).padEnd(n);
const padStart = (s: string | number, n: number) => String(s).padStart(n);

function report(doc: OpenApi, client: ProxyClient, seconds: number): boolean {
  const ops = operationsOf(doc);
  const sent = client.sent;
  const problems = problemsOf(sent);
  const width = Math.max(...ops.map((o) => `${o.method} ${o.path}`.length));
  const lines = [`${pad('operation', width)}  valid  invalid  statuses`];
  for (const o of [...ops].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    const mine = sent.filter((s) => s.operation === o.id);
    const statuses = [...new Set(mine.map((s) => s.status))].sort().join(' ');
    lines.push(`${pad(`${o.method} ${o.path}`, width)}  ${padStart(mine.filter((s) => s.kind === 'valid').length, 5)}  ${padStart(mine.filter((s) => s.kind === 'invalid').length, 7)}  ${statuses}`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  const uncovered = ops.filter((o) => !sent.some((s) => s.operation === o.id && s.kind === 'valid'));
  const rows: [string, string | number, boolean][] = [
    ['operations in docs/openapi.json', ops.length, false],
    ['operations covered (valid and invalid requests)', `${ops.length - uncovered.length} of ${ops.length}`, uncovered.length > 0],
    ['requests sent through Prism', `${sent.length} (${sent.filter((s) => s.kind === 'valid').length} valid, ${sent.filter((s) => s.kind === 'invalid').length} invalid)`, false],
    ['undocumented statuses', problems.undocumented!.length, problems.undocumented!.length > 0],
    ['schema mismatches', problems.mismatch!.length, problems.mismatch!.length > 0],
    ['valid requests the document refuses', problems.validRefused!.length, problems.validRefused!.length > 0],
    ['5xx answers', problems.serverError!.length, problems.serverError!.length > 0],
    ['requests Prism answered itself', problems.byPrism!.length, problems.byPrism!.length > 0],
    ['answers other than the request expected', problems.unexpected!.length, problems.unexpected!.length > 0],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  process.stdout.write(`\n${rows.map(([k, v, bad]) => `${pad(k, w)}  ${v}${bad ? '   <- must be 0' : ''}`).join('\n')}\n`);
  process.stdout.write(`(${seconds.toFixed(0)} s)\n`);
  for (const o of uncovered) process.stdout.write(`  no valid request: ${o.method} ${o.path} (add one to test/prism/scenario.ts)\n`);
  for (const [kind, list] of Object.entries(problems)) {
    for (const p of list.slice(0, 40)) process.stdout.write(`  ${kind}: ${p.sent.method} ${p.sent.url} [${p.sent.kind}: ${p.sent.label}] ${p.what}\n`);
    if (list.length > 40) process.stdout.write(`  ${kind}: … ${list.length - 40} more\n`);
  }
  return uncovered.length === 0 && Object.values(problems).every((l) => l.length === 0);
}

async function main(): Promise<number> {
  const t0 = Date.now();
  const doc = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as OpenApi;
  const dataDir = mkdtempSync(join(tmpdir(), 'vat-prism-'));
  const vies = await new LocalVies().start();
  vies.numbers.set('DE136695976', 'valid');
  const procs: Proc[] = [];
  try {
    const port = await freePort();
    const service = `http://127.0.0.1:${port}`;
    const server = spawnMain('all', { DATA_DIR: dataDir, PORT: String(port), VIES_URL: vies.url });
    procs.push(server);
    log(`npm start (embedded) on ${service}, DATA_DIR ${dataDir}`);
    const ready = await waitReady(service, [server], 180_000);
    log(`ready after ${(ready.ms / 1000).toFixed(0)} s`);
    const served = await (await fetch(`${service}/openapi.json`)).text();
    if (JSON.stringify(JSON.parse(served)) !== JSON.stringify(doc)) {
      log('docs/openapi.json is not what GET /openapi.json serves: run `npm run openapi`');
      return 1;
    }
    const p = await provision(dataDir, dataDir, log);
    log(`provisioned at ${((Date.now() - t0) / 1000).toFixed(0)} s`);

    const prismPort = await freePort();
    const prism = spawnProcess('prism proxy', NODE, [PRISM, 'proxy', DOCUMENT, service, '--port', String(prismPort), '--host', '127.0.0.1', '--verboseLevel', 'warn']);
    procs.push(prism);
    await waitFor('prism proxy', async () => {
      if (prism.exited()) throw new GiveUp(`prism exited: ${prism.output()}`);
      return tcpOpen(prismPort);
    }, { timeoutMs: 60_000, intervalMs: 200 });
    log(`prism proxy on http://127.0.0.1:${prismPort} in front of it`);

    const ops = operationsOf(doc);
    const client = new ProxyClient(`http://127.0.0.1:${prismPort}`, ops);
    // A scenario step that cannot go on is a failure, but what was sent until then is still reported.
    const stopped = await runScenario({ client, service, p }).then(
      () => undefined,
      (err: Error) => err,
    );
    if (stopped) log(`the scenario stopped: ${stopped.message}`);
    log(`valid requests sent at ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const creds = { full: { 'x-api-key': p.keys.full }, 'read-only': { 'x-api-key': p.keys.readOnly }, 'calculate-only': { 'x-api-key': p.keys.calculateOnly } };
    for (const o of ops) {
      const valid = client.validRequestOf(o.id);
      if (!valid) continue;
      for (const r of invalidRequests(doc, o, valid, creds)) await client.send(r);
    }
    return report(doc, client, (Date.now() - t0) / 1000) && !stopped ? 0 : 1;
  } finally {
    for (const proc of procs.reverse()) log(`${proc.name} stopped (${await stopProcess(proc, 'SIGTERM', 15_000)}) at ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    await vies.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const code = await main().catch((err: Error) => {
  log(`failed: ${err.stack ?? err.message}`);
  return 1;
});
// Exits now: the admin helpers leave their timeout timers running.
process.exit(code);
