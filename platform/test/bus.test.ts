import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InProcessBus, subjectMatches, type BusMessage } from '../src/bus';

const msg = (id: string, subject = 'vat.calculation.v1.calculation_recorded'): BusMessage => ({ id, subject, data: new Uint8Array([1]) });

describe('subject matching follows NATS wildcards', () => {
  it('matches exact subjects, * for one token and > for the rest', () => {
    expect(subjectMatches('vat.a.v1.x', 'vat.a.v1.x')).toBe(true);
    expect(subjectMatches('vat.*.v1.x', 'vat.a.v1.x')).toBe(true);
    expect(subjectMatches('vat.>', 'vat.a.v1.x')).toBe(true);
    expect(subjectMatches('vat.>', 'vat')).toBe(false);
    expect(subjectMatches('vat.a', 'vat.a.b')).toBe(false);
    expect(subjectMatches('vat.*', 'vat.a.b')).toBe(false);
  });

  it('an exact pattern matches exactly itself', () => {
    const token = fc.stringMatching(/^[a-z0-9_]{1,8}$/);
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 5 }), fc.array(token, { minLength: 1, maxLength: 5 }), (a, b) => {
        expect(subjectMatches(a.join('.'), b.join('.'))).toBe(a.join('.') === b.join('.'));
      }),
    );
  });
});

describe('in-process bus has the JetStream delivery contract', () => {
  const opened = () => {
    const bus = new InProcessBus();
    return { bus, open: () => bus.open() };
  };

  it('delivers each durable its matching part of a batch, in one call, before publish resolves', async () => {
    const { bus, open } = opened();
    const seen: string[][] = [];
    await bus.subscribe({ durable: 'a', subjects: ['vat.a.>'], handler: async (b) => void seen.push(b.map((m) => `a:${m.id}`)) });
    await bus.subscribe({ durable: 'b', subjects: ['vat.>'], handler: async (b) => void seen.push(b.map((m) => `b:${m.id}`)) });
    await bus.subscribe({ durable: 'c', subjects: ['vat.other.>'], handler: async (b) => void seen.push(b.map((m) => `c:${m.id}`)) });
    open();
    expect(await bus.publish([msg('1', 'vat.a.v1.x'), msg('2', 'vat.b.v1.x'), msg('3', 'vat.a.v1.y')])).toEqual(['1', '2', '3']);
    expect(seen).toEqual([['a:1', 'a:3'], ['b:1', 'b:2', 'b:3']]);
    // Subjects seen before (their routes are kept) and a new one route the same way.
    seen.length = 0;
    await bus.publish([msg('4', 'vat.a.v1.x'), msg('5', 'vat.other.v1.z'), msg('6', 'vat.b.v1.x')]);
    expect(seen).toEqual([['a:4'], ['b:4', 'b:5', 'b:6'], ['c:5']]);
  });

  it('hands a durable with maxBatch its part in calls of at most that many, in order', async () => {
    const { bus, open } = opened();
    const seen: string[][] = [];
    await bus.subscribe({ durable: 'a', subjects: ['vat.>'], maxBatch: 2, handler: async (b) => void seen.push(b.map((m) => m.id)) });
    open();
    await bus.publish(['1', '2', '3', '4', '5'].map((id) => msg(id, 'vat.a.v1.x')));
    expect(seen).toEqual([['1', '2'], ['3', '4'], ['5']]);
  });

  it('drops ids it already delivered and ids repeated inside a batch (Nats-Msg-Id de-duplication)', async () => {
    const { bus, open } = opened();
    const seen: string[] = [];
    await bus.subscribe({ durable: 'a', subjects: ['vat.>'], handler: async (b) => void seen.push(...b.map((m) => m.id)) });
    open();
    await bus.publish([msg('same'), msg('other'), msg('same')]);
    expect(await bus.publish([msg('same'), msg('new')])).toEqual(['same', 'new']);
    expect(seen).toEqual(['same', 'other', 'new']);
  });

  it('a failed handler fails the publish and the batch is delivered again on retry', async () => {
    const { bus, open } = opened();
    let attempts = 0;
    await bus.subscribe({
      durable: 'a',
      subjects: ['vat.>'],
      handler: async () => {
        attempts++;
        if (attempts === 1) throw new Error('boom');
      },
    });
    open();
    await expect(bus.publish([msg('x'), msg('y')])).rejects.toThrow('boom');
    await bus.publish([msg('x'), msg('y')]);
    expect(attempts).toBe(2);
  });

  it('refuses two subscriptions with one durable name', async () => {
    const bus = new InProcessBus();
    await bus.subscribe({ durable: 'a', subjects: ['vat.>'], handler: async () => {} });
    await expect(bus.subscribe({ durable: 'a', subjects: ['vat.>'], handler: async () => {} })).rejects.toThrow();
  });

  it('refuses to publish before it is opened, so an early publisher keeps its events instead of losing them', async () => {
    const bus = new InProcessBus();
    const seen: string[] = [];
    await bus.subscribe({ durable: 'a', subjects: ['vat.>'], handler: async (b) => void seen.push(...b.map((m) => m.id)) });
    await expect(bus.publish([msg('early')])).rejects.toThrow(/not open/);
    bus.open();
    await bus.publish([msg('early')]);
    expect(seen).toEqual(['early']);
  });

  it('refuses a subscription after it opened (that consumer would have missed earlier events)', async () => {
    const bus = new InProcessBus();
    bus.open();
    await expect(bus.subscribe({ durable: 'late', subjects: ['vat.>'], handler: async () => {} })).rejects.toThrow(/after the bus opened/);
  });
});
