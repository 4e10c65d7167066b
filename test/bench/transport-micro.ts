import { createClients, type Clients } from '@vat/platform/clients';
import { principalHeaders } from '@vat/platform/principal';
import { requireBackends } from '../support/env';
import { startHarness } from '../support/harness';
import { threeTransports, type TransportKind } from '../contract/three-transports';

/**
 * In-process RPC cost without HTTP in front: the same two calls through the router transport (full
 * Connect protocol in memory), the direct transport and, for scale, HTTP/2 to a local server.
 * Not a test: `npx tsx test/bench/transport-micro.ts` (MICRO_CALLS, MICRO_TRANSPORTS=direct,router,
 * MICRO_ONLY=<part of a call name>, e.g. to profile one call with `node --cpu-prof --import tsx`).
 */
const CALLS = Number(process.env.MICRO_CALLS ?? 5000);
const CONCURRENCY = 32;
const KINDS = (process.env.MICRO_TRANSPORTS ?? 'router,direct,http2').split(',') as TransportKind[];

if (!(await requireBackends(['postgres'])).ok) process.exit(0);
const h = await startHarness();
const wired = await threeTransports(h.built.services, h.config);
const key = await h.built.gateway!.keys.create('micro-bench', 'full', false);
const headers = principalHeaders({ accountId: BigInt(key.account_id), apiKeyId: BigInt(key.id), keyKind: 'v2', scope: 'full' });

const scenarios: [string, (c: Clients) => Promise<unknown>][] = (
  [
    ['TaxClassService.ListTaxClasses country=DE', (c) => c.taxClasses.listTaxClasses({ country: 'DE' })],
    ['SourceService.ListSources (2 profiles)', (c) => c.sources.listSources({}, { headers })],
  ] as [string, (c: Clients) => Promise<unknown>][]
).filter(([name]) => name.includes(process.env.MICRO_ONLY ?? ''));
await createClients(wired.transportFor.direct).sources.createSource({ sourceKey: 'shop/eu', displayName: 'EU shop', channelType: 'owned_store' }, { headers });
await createClients(wired.transportFor.direct).sources.createSource({ sourceKey: 'shop/uk', displayName: 'UK shop', channelType: 'owned_store' }, { headers });

/** Calls per second for `calls` calls, `parallel` at a time. */
async function rate(call: () => Promise<unknown>, calls: number, parallel: number): Promise<number> {
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next++ < calls) await call();
    }),
  );
  return calls / (Number(process.hrtime.bigint() - started) / 1e9);
}

console.log(`\n${CALLS} calls per cell, Node ${process.version}\n`);
console.log('| call | transport | calls/s, one at a time | µs/call | calls/s, 32 in flight |');
console.log('|---|---|---:|---:|---:|');
for (const [name, call] of scenarios) {
  for (const kind of KINDS) {
    const c = createClients(wired.transportFor[kind]);
    await rate(() => call(c), Math.min(1000, CALLS), 8);
    const serial = await rate(() => call(c), CALLS, 1);
    const parallel = await rate(() => call(c), CALLS, CONCURRENCY);
    console.log(`| ${name} | ${kind} | ${serial.toFixed(0)} | ${(1e6 / serial).toFixed(1)} | ${parallel.toFixed(0)} |`);
  }
}
await wired.close();
await h.close();
