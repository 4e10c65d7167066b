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
  it('delivers to every matching durable before publish resolves', async () => {
    const bus = new InProcessBus();
    const seen: string[] = [];
    await bus.subscribe({ durable: 'a', subjects: ['vat.>'], handler: async (m) => void seen.push(`a:${m.id}`) });
    await bus.subscribe({ durable: 'b', subjects: ['vat.other.>'], handler: async (m) => void seen.push(`b:${m.id}`) });
    await bus.publish(msg('1'));
    expect(seen).toEqual(['a:1']);
  });

  it('drops a message id it already delivered (Nats-Msg-Id de-duplication)', async () => {
    const bus = new InProcessBus();
    let n = 0;
    await bus.subscribe({ durable: 'a', subjects: ['vat.>'], handler: async () => void n++ });
    await bus.publish(msg('same'));
    await bus.publish(msg('same'));
    expect(n).toBe(1);
  });

  it('a failed handler fails the publish and the message is delivered again on retry', async () => {
    const bus = new InProcessBus();
    let attempts = 0;
    await bus.subscribe({
      durable: 'a',
      subjects: ['vat.>'],
      handler: async () => {
        attempts++;
        if (attempts === 1) throw new Error('boom');
      },
    });
    await expect(bus.publish(msg('x'))).rejects.toThrow('boom');
    await bus.publish(msg('x'));
    expect(attempts).toBe(2);
  });

  it('refuses two subscriptions with one durable name', async () => {
    const bus = new InProcessBus();
    await bus.subscribe({ durable: 'a', subjects: ['vat.>'], handler: async () => {} });
    await expect(bus.subscribe({ durable: 'a', subjects: ['vat.>'], handler: async () => {} })).rejects.toThrow();
  });
});
