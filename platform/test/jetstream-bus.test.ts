import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { connect } from '@nats-io/transport-node';
import { nanos } from '@nats-io/nats-core';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusMessage } from '../src/bus';
import { durableOfSubject, JetStreamBus } from '../src/jetstream-bus';
import { IN_CI } from '../../test/support/env';
import { NATS_SERVER, startPrivateNats, waitFor, type PrivateNats } from '../../test/support/processes';

const natsBinary = existsSync(NATS_SERVER);
if (!natsBinary && IN_CI) throw new Error(`CI=true and no nats-server at ${NATS_SERVER}`);

const silent = pino({ level: process.env.BUS_LOG ?? 'silent' });
const msg = (id: string, subject = 'vat.test.v1.thing_happened'): BusMessage => ({ id, subject, data: new TextEncoder().encode(id) });

describe.skipIf(!natsBinary)('JetStream bus (private nats-server)', () => {
  let nats: PrivateNats;
  const buses: JetStreamBus[] = [];
  const bus = async (name: string) => {
    const b = new JetStreamBus(nats.url, name, silent);
    buses.push(b);
    await waitFor('NATS connected', () => b.connected(), { timeoutMs: 10_000, intervalMs: 20 });
    return b;
  };
  beforeAll(async () => {
    nats = await startPrivateNats();
  }, 30_000);
  afterAll(async () => {
    for (const b of buses) await b.close();
    await nats?.stop();
  });

  it('refuses to publish before it is opened and to subscribe after', async () => {
    const b = await bus('gate');
    await expect(b.publish([msg(randomUUID())])).rejects.toThrow(/not open/);
    b.open();
    await expect(b.subscribe({ durable: 'late', subjects: ['vat.test.>'], handler: async () => {} })).rejects.toThrow(/after the bus opened/);
  });

  it('a durable created after the events were published gets them all, in batches, once per Nats-Msg-Id; a failed batch is retried', async () => {
    const publisher = await bus('publisher');
    publisher.open();
    const ids = Array.from({ length: 60 }, () => randomUUID());
    expect(await publisher.publish(ids.map((id) => msg(id)))).toEqual(ids);
    expect(await publisher.publish([msg(ids[0]!), msg(ids[1]!)])).toEqual([ids[0], ids[1]]);

    const consumer = await bus('consumer');
    const batches: string[][] = [];
    const applied = new Set<string>();
    let failures = 0;
    await consumer.subscribe({
      durable: 'batch-test',
      subjects: ['vat.test.>'],
      handler: async (batch) => {
        batches.push(batch.map((m) => m.id));
        await new Promise((r) => setTimeout(r, 20));
        if (failures++ === 0) throw new Error('first batch fails');
        for (const m of batch) applied.add(m.id);
      },
    });
    consumer.open();
    await waitFor('every event applied', () => applied.size === ids.length, { timeoutMs: 20_000, intervalMs: 20 });
    expect([...applied].sort()).toEqual([...ids].sort());
    expect(batches.length).toBeLessThan(ids.length);
    expect(Math.max(...batches.map((b) => b.length))).toBeGreaterThan(1);
    // The failed first batch came again (one by one); nothing else was delivered twice (all were acked).
    await new Promise((r) => setTimeout(r, 1500));
    expect(batches.flat().length).toBe(ids.length + batches[0]!.length);
  }, 40_000);

  it('a durable of several subjects gets exactly those subjects, on every server version (NATS < 2.10 has no filter_subjects)', async () => {
    const publisher = await bus('multi-publisher');
    publisher.open();
    const [one, other, two] = [randomUUID(), randomUUID(), randomUUID()];
    await publisher.publish([msg(one, 'vat.multi.v1.one'), msg(other, 'vat.multi.v1.other'), msg(two, 'vat.multi.v1.two')]);
    const consumer = await bus('multi-consumer');
    const seen: BusMessage[] = [];
    await consumer.subscribe({ durable: 'multi-test', subjects: ['vat.multi.v1.one', 'vat.multi.v1.two'], handler: async (b) => void seen.push(...b) });
    consumer.open();
    await waitFor('both subjects delivered', () => seen.length >= 2, { timeoutMs: 10_000, intervalMs: 20 });
    const last = randomUUID();
    await publisher.publish([msg(randomUUID(), 'vat.multi.v1.other'), msg(last, 'vat.multi.v1.two')]);
    await waitFor('the later event delivered', () => seen.some((m) => m.id === last), { timeoutMs: 10_000, intervalMs: 20 });
    // In order per subject (on NATS < 2.10 each subject has its own durable, so the two subjects interleave freely).
    expect(seen.filter((m) => m.subject === 'vat.multi.v1.one').map((m) => m.id)).toEqual([one]);
    expect(seen.filter((m) => m.subject === 'vat.multi.v1.two').map((m) => m.id)).toEqual([two, last]);
    expect(seen).toHaveLength(3);
  });

  it('several subjects: one filtered durable per subject on NATS < 2.10 (never one taking the whole stream), one with both filters on later servers; the other layout is removed', async () => {
    const nc = await connect({ servers: nats.url });
    const jsm = await jetstreamManager(nc);
    const [major = 0, minor = 0] = (nc.info?.version ?? '0.0').split('.').map(Number);
    const filters = major > 2 || (major === 2 && minor >= 10);
    const subjects = ['vat.layout.v1.one', 'vat.layout.v1.two'];
    const perSubject = subjects.map((subject) => durableOfSubject('layout-test', subject));
    // What an earlier version left: on NATS < 2.10 the unfiltered durable, on later servers the per-subject ones.
    for (const name of filters ? perSubject : ['layout-test']) {
      await jsm.consumers.add('VAT', { durable_name: name, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, ack_wait: nanos(30_000), max_deliver: -1 });
    }
    const consumer = await bus('layout-consumer');
    const seen: string[] = [];
    await consumer.subscribe({ durable: 'layout-test', subjects, handler: async (b) => void seen.push(...b.map((m) => m.subject)) });
    consumer.open();
    const publisher = await bus('layout-publisher');
    publisher.open();
    await publisher.publish([msg(randomUUID(), 'vat.layout.v1.one'), msg(randomUUID(), 'vat.layout.v1.other'), msg(randomUUID(), 'vat.layout.v1.two')]);
    await waitFor('both subjects delivered', () => seen.length >= 2, { timeoutMs: 10_000, intervalMs: 20 });
    const names = (await jsm.consumers.list('VAT').next()).map((c) => c.name);
    const configs = await Promise.all(names.filter((n) => n.startsWith('layout-test')).map(async (n) => [n, (await jsm.consumers.info('VAT', n)).config] as const));
    await nc.close();
    if (filters) {
      expect(configs.map(([n, c]) => [n, c.filter_subjects])).toEqual([['layout-test', subjects]]);
    } else {
      expect(configs.map(([n, c]) => [n, c.filter_subject]).sort()).toEqual(perSubject.map((n, i) => [n, subjects[i]]).sort());
    }
    expect(seen.sort()).toEqual(subjects);
  });

  it('an event that keeps failing is redelivered alone and holds back none of its batch', async () => {
    const publisher = await bus('poison-publisher');
    publisher.open();
    const ids = Array.from({ length: 10 }, () => randomUUID());
    const poison = ids[3]!;
    await publisher.publish(ids.map((id) => msg(id, 'vat.poison.v1.thing_happened')));
    const consumer = await bus('poison-consumer');
    const applied = new Set<string>();
    let poisonTries = 0;
    await consumer.subscribe({
      durable: 'poison-test',
      subjects: ['vat.poison.>'],
      handler: async (batch) => {
        if (batch.some((m) => m.id === poison)) {
          poisonTries++;
          throw new Error('cannot apply');
        }
        for (const m of batch) applied.add(m.id);
      },
    });
    consumer.open();
    await waitFor('the poison event redelivered', () => poisonTries >= 4, { timeoutMs: 20_000, intervalMs: 20 });
    expect([...applied].sort()).toEqual(ids.filter((id) => id !== poison).sort());
  }, 40_000);

  it('an existing durable subscribed to other subjects is recreated with the new filter (an existing deployment picks the new subject and its history up)', async () => {
    const publisher = await bus('filter-publisher');
    publisher.open();
    // The deployed version's durable, filtering one subject (created as JetStreamBus creates it).
    const nc = await connect({ servers: nats.url });
    const jsm = await jetstreamManager(nc);
    await jsm.consumers.add('VAT', { durable_name: 'filter-test', ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, filter_subject: 'vat.filter.v1.first', ack_wait: nanos(30_000), max_deliver: -1 });
    const first = randomUUID();
    const skipped = randomUUID();
    await publisher.publish([msg(first, 'vat.filter.v1.first'), msg(skipped, 'vat.filter.v1.second')]);
    const old = await jetstream(nc).consumers.get('VAT', 'filter-test');
    const m = await old.next({ expires: 5000 });
    expect(m?.headers?.get('Nats-Msg-Id')).toBe(first);
    m!.ack();
    await old.info(); // a round trip: the ack is processed
    await nc.close();
    // The new version subscribes the same durable to the whole family of subjects.
    const next = await bus('filter-new');
    const seen: string[] = [];
    await next.subscribe({ durable: 'filter-test', subjects: ['vat.filter.v1.>'], handler: async (b) => void seen.push(...b.map((m) => m.id)) });
    next.open();
    const [a, b] = [randomUUID(), randomUUID()];
    await publisher.publish([msg(a, 'vat.filter.v1.second'), msg(b, 'vat.filter.v1.first')]);
    // The durable starts again from the beginning: the new subject's history (published while the old filter
    // skipped it) arrives too, and the already applied event comes again (an inbox drops it).
    await waitFor('the new subject delivered to the existing durable', () => [first, skipped, a, b].every((id) => seen.includes(id)), { timeoutMs: 10_000, intervalMs: 20 });
    const nc2 = await connect({ servers: nats.url });
    const info = await (await jetstreamManager(nc2)).consumers.info('VAT', 'filter-test');
    await nc2.close();
    expect(info.config.filter_subject).toBe('vat.filter.v1.>');
  }, 40_000);

  // Last: it deletes the stream the other tests share.
  it('a stream deleted while the bus runs is created again: the next publish goes through, and the durable comes back and gets it', async () => {
    const b = await bus('stream-loss');
    const got: string[] = [];
    await b.subscribe({ durable: 'stream-loss', subjects: ['vat.loss.v1.thing_happened'], handler: async (batch) => void got.push(...batch.map((m) => m.id)) });
    b.open();
    const [before, after] = [randomUUID(), randomUUID()];
    await b.publish([msg(before, 'vat.loss.v1.thing_happened')]);
    await waitFor('the event before the loss', () => got.includes(before), { timeoutMs: 10_000, intervalMs: 20 });
    const nc = await connect({ servers: nats.url });
    await (await jetstreamManager(nc)).streams.delete('VAT');
    await nc.close();
    expect(await b.publish([msg(after, 'vat.loss.v1.thing_happened')])).toEqual([after]);
    // The consumer notices the loss when its pull is refused or, on servers that do not tell a pending pull
    // (NATS 2.9), when two idle heartbeats are missed (up to about 30 s after the deletion).
    await waitFor('the event after the loss, through the recreated durable', () => got.includes(after), { timeoutMs: 60_000, intervalMs: 50 });
    expect(got).toEqual([before, after]);
  }, 90_000);
});
