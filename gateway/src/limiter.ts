import type { Redis } from 'ioredis';

type LimitDecision = { allowed: boolean; retryAfterSeconds: number };

/** Fixed-window request limiter; `consume` throws when its backend cannot answer. */
export interface Limiter {
  consume(bucket: string, limit: number, windowMs: number): Promise<LimitDecision>;
  healthy(): boolean;
  close(): Promise<void>;
}

function windowOf(now: number, windowMs: number) {
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) };
}

/** Single-process limiter for `npm start`. */
export class MemoryLimiter implements Limiter {
  private readonly counts = new Map<string, number>();
  private currentWindow = 0;

  async consume(bucket: string, limit: number, windowMs: number): Promise<LimitDecision> {
    const w = windowOf(Date.now(), windowMs);
    if (w.start !== this.currentWindow) {
      this.counts.clear();
      this.currentWindow = w.start;
    }
    const n = (this.counts.get(bucket) ?? 0) + 1;
    this.counts.set(bucket, n);
    return { allowed: n <= limit, retryAfterSeconds: w.retryAfterSeconds };
  }

  healthy(): boolean {
    return true;
  }

  async close(): Promise<void> {}
}

/**
 * Limiter shared by every gateway replica through Redis (INCR + PEXPIRE per window). Made by `connect`, which
 * loads the Redis client only then: a gateway without REDIS_URL (`npm start`) never loads it (about 25 ms of
 * its start).
 */
export class RedisLimiter implements Limiter {
  private constructor(private readonly redis: Redis) {
    this.redis.on('error', () => undefined);
  }

  /** Connects in the background (commands fail, and `healthy()` is false, until Redis answers). */
  static async connect(url: string): Promise<RedisLimiter> {
    const { Redis: Client } = await import('ioredis');
    return new RedisLimiter(new Client(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000, lazyConnect: false }));
  }

  async consume(bucket: string, limit: number, windowMs: number): Promise<LimitDecision> {
    const w = windowOf(Date.now(), windowMs);
    const key = `vat:rl:${bucket}:${w.start}`;
    const res = await this.redis.multi().incr(key).pexpire(key, windowMs + 1000).exec();
    const n = Number(res?.[0]?.[1]);
    if (!Number.isFinite(n)) throw new Error('limiter unavailable');
    return { allowed: n <= limit, retryAfterSeconds: w.retryAfterSeconds };
  }

  healthy(): boolean {
    return this.redis.status === 'ready';
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
