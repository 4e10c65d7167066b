import { connect, createServer, type Socket } from 'node:net';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyedReadCache, PgChangeListener } from '@vat/platform/change-listener';
import { freshDatabase, requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import { SOURCE_PROFILE_CHANNEL, type CalculationDeps } from '../src/context';
import { sourceProfileChangedEvent } from '../src/events';
import { SourceProfileRepository } from '../src/repositories/source-profiles';
import { waitFor } from '../../../test/support/processes';

const backends = await requireBackends(['postgres']);

type Replica = { name: string; pool: pg.Pool; repo: SourceProfileRepository; listener: PgChangeListener };

/** Waits (every 20 ms) until `check` holds. */
const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000) => waitFor(what, check, { timeoutMs, intervalMs: 20 });

describe('KeyedReadCache: a read that raced a change stores nothing', () => {
  const deferred = <T>() => {
    let resolve!: (v: T) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    return { promise, resolve };
  };

  it('stores a read, drops it on a change, and does not store a read that a change or a reset overtook', async () => {
    const cache = new KeyedReadCache<string>(() => true);
    let loads = 0;
    expect(await cache.read('a', async () => `v${++loads}`)).toBe('v1');
    expect(await cache.read('a', async () => `v${++loads}`)).toBe('v1');
    cache.changed('a');
    expect(await cache.read('a', async () => `v${++loads}`)).toBe('v2');

    // The read began before the change and ended after it: its answer is not kept.
    cache.changed('a');
    const slow = deferred<string>();
    const racing = cache.read('a', () => slow.promise);
    cache.changed('a');
    slow.resolve('old');
    expect(await racing).toBe('old');
    expect(await cache.read('a', async () => 'new')).toBe('new');
    expect(await cache.read('a', async () => 'newer')).toBe('new');

    // Likewise across a reset (the feed was lost meanwhile).
    cache.changed('a');
    const slow2 = deferred<string>();
    const racing2 = cache.read('a', () => slow2.promise);
    cache.reset();
    slow2.resolve('old');
    await racing2;
    expect(await cache.read('a', async () => 'fresh')).toBe('fresh');
  });

  it('neither serves nor stores while the feed is not live, nor keeps a read during which it went down', async () => {
    let live = false;
    const cache = new KeyedReadCache<number>(() => live);
    let n = 0;
    expect(await cache.read('k', async () => ++n)).toBe(1);
    expect(await cache.read('k', async () => ++n)).toBe(2);
    live = true;
    const during = cache.read('k', async () => {
      live = false;
      return ++n;
    });
    expect(await during).toBe(3);
    live = true;
    expect(await cache.read('k', async () => ++n)).toBe(4);
    expect(await cache.read('k', async () => ++n)).toBe(4);
    expect(cache.size).toBe(1);
  });
});

describe.skipIf(!backends.ok)('source profiles are cached per process and kept right across replicas by LISTEN/NOTIFY (PostgreSQL)', () => {
  let h: ServiceHarness<CalculationDeps>;
  const replicas: Replica[] = [];
  let otherDb: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  const now = new Date('2026-11-29T12:00:00Z');

  /** A calculation process of its own: its pool, its repository, its listening session (`listenUrl`: where it listens). */
  function replica(name: string, listenUrl?: string): Replica {
    const pool = new pg.Pool({ connectionString: h.deps.databaseUrl, max: 2 });
    let listener!: PgChangeListener;
    const repo = new SourceProfileRepository(pool, sourceProfileChangedEvent, (cache) => {
      listener = new PgChangeListener({
        url: listenUrl ?? h.deps.databaseUrl,
        pool,
        channel: SOURCE_PROFILE_CHANNEL,
        applicationName: `vat-test-listen-${name}`,
        onChange: (k) => cache.changed(k),
        onReset: () => cache.reset(),
        log: pino({ level: 'silent' }),
        probeEveryMs: 200,
        probeTimeoutMs: 500,
      });
      return listener;
    });
    repo.startCache();
    const r = { name, pool, repo, listener };
    replicas.push(r);
    return r;
  }

  const create = (r: Replica, accountId: bigint, sourceKey: string) =>
    r.repo.withAccountLock(accountId, now, (profiles) => profiles.create({ sourceKey, displayName: sourceKey, channelType: 'owned_store' }, now));
  /** A profile written behind every process's back (no notification), as a hand-made change would be. */
  const insertBehind = (accountId: bigint, sourceKey: string) =>
    h.deps.pool.query(`insert into calculation.source_profile (account_id, source_key, display_name, channel_type, marketplace_deemed_supplier, active, created_at, updated_at) values ($1, $2, $2, 'owned_store', false, true, now(), now())`, [accountId.toString(), sourceKey]);
  const keys = async (r: Replica, accountId: bigint) => (await r.repo.list(accountId)).map((p) => p.sourceKey);

  beforeAll(async () => {
    h = await startServiceHarness<CalculationDeps>('calculation');
  });
  afterAll(async () => {
    for (const r of replicas) {
      await r.repo.stopCache();
      await r.pool.end();
    }
    await otherDb?.drop();
    await h?.close();
  });

  it('a live replica answers from memory once it has read an account; a notification makes it read again', async () => {
    const a = replica('a');
    await until('a live', () => a.listener.live());
    expect(await keys(a, 901n)).toEqual([]);
    await insertBehind(901n, 'behind/1');
    // Served from memory: the row written behind its back is not seen ...
    expect(await keys(a, 901n)).toEqual([]);
    // ... until a change of the account is announced (as every write through the repository does at commit).
    await h.deps.pool.query('select pg_notify($1, $2)', [SOURCE_PROFILE_CHANNEL, '901']);
    await until('a reads again', async () => (await keys(a, 901n)).length === 1);
    expect(await keys(a, 901n)).toEqual(['behind/1']);
    // Another account's list was never touched.
    expect(await keys(a, 902n)).toEqual([]);
  });

  it('a write through one replica reaches the other replica\'s cache when it commits; the writer\'s own at once', async () => {
    const b = replica('b');
    const c = replica('c');
    await until('b and c live', () => b.listener.live() && c.listener.live());
    expect(await keys(b, 903n)).toEqual([]);
    expect(await keys(c, 903n)).toEqual([]);
    await create(b, 903n, 'shop/one');
    expect(await keys(b, 903n)).toEqual(['shop/one']);
    await until('c sees the write', async () => (await keys(c, 903n)).length === 1);
    expect(await keys(c, 903n)).toEqual(['shop/one']);
    // A write that fails inside its transaction (the key is taken) changes nothing and leaves both right.
    await expect(create(c, 903n, 'shop/one')).rejects.toThrow();
    await create(c, 903n, 'shop/two');
    expect(await keys(c, 903n)).toEqual(['shop/one', 'shop/two']);
    await until('b sees the second write', async () => (await keys(b, 903n)).length === 2);
  });

  it('while its listening session is lost a replica reads the database, and serves from memory again once it listens', async () => {
    const d = replica('d');
    await until('d live', () => d.listener.live());
    expect(await keys(d, 904n)).toEqual([]);
    await h.deps.pool.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'vat-test-listen-d'`);
    await until('d not live', () => !d.listener.live());
    await insertBehind(904n, 'behind/2');
    // Not live: no stale answer, the database's.
    expect(await keys(d, 904n)).toEqual(['behind/2']);
    await until('d live again', () => d.listener.live());
    // What it held before the loss was forgotten when it came back.
    expect(await keys(d, 904n)).toEqual(['behind/2']);
    await insertBehind(904n, 'behind/3');
    expect(await keys(d, 904n)).toEqual(['behind/2']);
  });

  it('a session that silently stops receiving (its LISTEN gone) is found by the next probe: the cache goes off, then comes back', async () => {
    const f = replica('f');
    await until('f live', () => f.listener.live());
    expect(await keys(f, 906n)).toEqual([]);
    // The session stays connected but receives nothing any more, as behind a path that drops packets.
    await (f.listener as unknown as { client: pg.Client }).client.query('unlisten *');
    await insertBehind(906n, 'behind/5');
    await h.deps.pool.query('select pg_notify($1, $2)', [SOURCE_PROFILE_CHANNEL, '906']);
    // The notification is lost; within a probe period and its timeout (200 + 500 ms here) the cache is off and forgotten.
    await until('f not live', () => !f.listener.live(), 3_000);
    expect(await keys(f, 906n)).toEqual(['behind/5']);
    await until('f live again', () => f.listener.live());
    expect(await keys(f, 906n)).toEqual(['behind/5']);
  });

  it('a listening session that does not get the pool\'s notifications back (a pooler that drops LISTEN) never turns the cache on', async () => {
    otherDb = await freshDatabase({ empty: true });
    const e = replica('e', otherDb.url);
    // Several probe periods: the probe goes out through the pool (this database) and never reaches the other.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(e.listener.live()).toBe(false);
    expect(await keys(e, 905n)).toEqual([]);
    await insertBehind(905n, 'behind/4');
    expect(await keys(e, 905n)).toEqual(['behind/4']);
  });

  it('stops at once whatever its check is doing: while its session connects, while it LISTENs, while a probe is out', async () => {
    // A path to PostgreSQL on which each new connection waits `delayMs` before it reaches the server, so a stop
    // lands inside the check's connect (pg's connect() never settles once end() is called on a connecting
    // client: a stop that waited for it would hang for good).
    const direct = new URL(h.deps.databaseUrl);
    const sockets = new Set<Socket>();
    let delayMs = 0;
    const proxy = createServer((client) => {
      sockets.add(client);
      client.on('error', () => undefined);
      setTimeout(() => {
        const upstream = connect({ host: direct.hostname, port: Number(direct.port || 5432) });
        sockets.add(upstream);
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.pipe(upstream).pipe(client);
      }, delayMs);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const slow = new URL(h.deps.databaseUrl);
    slow.host = `127.0.0.1:${(proxy.address() as { port: number }).port}`;
    const pool = new pg.Pool({ connectionString: h.deps.databaseUrl, max: 1 });
    try {
      for (const [delay, stopAfterMs] of [[400, 100], [0, 0], [0, 2], [0, 5], [0, 10], [0, 20]] as const) {
        delayMs = delay;
        const listener = new PgChangeListener({
          url: slow.toString(), pool, channel: SOURCE_PROFILE_CHANNEL, applicationName: 'vat-test-listen-stop',
          onChange: () => undefined, onReset: () => undefined, log: pino({ level: 'silent' }), probeEveryMs: 200, probeTimeoutMs: 5_000,
        });
        listener.start();
        await new Promise((r) => setTimeout(r, stopAfterMs));
        const stopped = await Promise.race([listener.stop().then(() => 'stopped'), new Promise((r) => setTimeout(r, 1_000, 'still stopping after 1 s'))]);
        expect(stopped, `connect delayed ${delay} ms, stopped after ${stopAfterMs} ms`).toBe('stopped');
        expect(listener.live()).toBe(false);
      }
      // A probe whose notification never goes out (a pool that never answers): the stop ends it too.
      const silentPool = { query: () => new Promise(() => undefined) } as unknown as pg.Pool;
      const probing = new PgChangeListener({
        url: h.deps.databaseUrl, pool: silentPool, channel: SOURCE_PROFILE_CHANNEL, applicationName: 'vat-test-listen-probe',
        onChange: () => undefined, onReset: () => undefined, log: pino({ level: 'silent' }), probeEveryMs: 200, probeTimeoutMs: 30_000,
      });
      probing.start();
      await until('the listening session is connected', async () => (await h.deps.pool.query(`select count(*)::int as n from pg_stat_activity where application_name = 'vat-test-listen-probe' and state is not null`)).rows[0].n === 1);
      await new Promise((r) => setTimeout(r, 100));
      const stoppedProbing = await Promise.race([probing.stop().then(() => 'stopped'), new Promise((r) => setTimeout(r, 1_000, 'still stopping after 1 s'))]);
      expect(stoppedProbing, 'stopped while its probe was out').toBe('stopped');
    } finally {
      await pool.end();
      for (const s of sockets) s.destroy();
      await new Promise((r) => proxy.close(r));
    }
  });
});
