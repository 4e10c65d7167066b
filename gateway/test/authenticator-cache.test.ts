import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Authenticator } from '../src/auth';
import type { KeyRecord, KeyStore } from '../src/keys';

const PUBLIC_ID = '0123456789abcdef';
const SECRET = 'A'.repeat(43);
const KEY = `vat_${PUBLIC_ID}_${SECRET}`;
const record = (revoked = false): KeyRecord => ({ id: 7n, accountId: 3n, kind: 'v2', scope: 'full', revoked, secretHash: createHash('sha256').update(SECRET).digest('hex') });

/** A key store whose reads the test answers by hand (each read waits until `answer` is called). */
function slowStore() {
  const reads: { answer(r: KeyRecord | undefined): void; fail(e: Error): void }[] = [];
  const store = {
    findByPublicId: (id: string) => {
      expect(id).toBe(PUBLIC_ID);
      return new Promise<KeyRecord | undefined>((resolve, reject) => reads.push({ answer: resolve, fail: reject }));
    },
  } as unknown as KeyStore;
  return { store, reads };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('Authenticator key cache: requests that miss together share one read', () => {
  it('64 concurrent requests of one key read the store once; after the cache lifetime, once more', async () => {
    const { store, reads } = slowStore();
    const auth = new Authenticator(store, 50);
    const burst = Array.from({ length: 64 }, () => auth.verifyKey(KEY));
    await tick();
    expect(reads).toHaveLength(1);
    reads[0]!.answer(record());
    expect((await Promise.all(burst)).every((r) => r.id === 7n)).toBe(true);
    // Within the lifetime: from the cache, no read.
    await auth.verifyKey(KEY);
    expect(reads).toHaveLength(1);
    // After it: one read for the next burst, and a key revoked meanwhile is refused by every request of it.
    await new Promise((r) => setTimeout(r, 60));
    const next = Array.from({ length: 8 }, () => auth.verifyKey(KEY).then(() => 'accepted', (e: { code?: string }) => e.code));
    await tick();
    expect(reads).toHaveLength(2);
    reads[1]!.answer(record(true));
    expect(new Set(await Promise.all(next))).toEqual(new Set(['invalid_api_key']));
  });

  it('a failed read fails every request that waited for it and is not kept: the next request reads again', async () => {
    const { store, reads } = slowStore();
    const auth = new Authenticator(store, 60_000);
    const burst = Array.from({ length: 4 }, () => auth.verifyKey(KEY).then(() => 'accepted', (e: Error) => e.message));
    await tick();
    expect(reads).toHaveLength(1);
    reads[0]!.fail(new Error('database unavailable'));
    expect(await Promise.all(burst)).toEqual(Array(4).fill('database unavailable'));
    const again = auth.verifyKey(KEY);
    await tick();
    expect(reads).toHaveLength(2);
    reads[1]!.answer(record());
    expect((await again).accountId).toBe(3n);
  });
});
