import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '@vat/platform/config';
import { StateLimiter } from './state-limiter';

/** A definitive VIES answer: the number is or is not registered in the Member State's database. */
export type ViesDecision = {
  kind: 'valid' | 'invalid';
  requestDate: string | null;
  /** The consultation number; VIES only gives one when a requester was sent. */
  requestIdentifier: string | null;
  name: string | null;
  address: string | null;
  attempts: number;
};

/** VIES or the Member State could not answer; never to be read as `invalid`. */
export type ViesUnavailable = { kind: 'unavailable'; reason: string; attempts: number };

/** VIES refused the request itself (its own syntax check, or our requester). */
export type ViesRefused = { kind: 'refused'; reason: string; attempts: number };

export type ViesAnswer = ViesDecision | ViesUnavailable | ViesRefused;

export type Availability = 'Available' | 'Unavailable' | 'Monitoring Disabled' | 'unknown';

/** Errors after which a later attempt may succeed (European Commission, VIES REST API technical information). */
const TRANSIENT = new Set([
  'SERVICE_UNAVAILABLE',
  'MS_UNAVAILABLE',
  'TIMEOUT',
  'GLOBAL_MAX_CONCURRENT_REQ',
  'GLOBAL_MAX_CONCURRENT_REQ_TIME',
  'MS_MAX_CONCURRENT_REQ',
  'MS_MAX_CONCURRENT_REQ_TIME',
  'NETWORK_ERROR',
  'CLIENT_TIMEOUT',
  'HTTP_ERROR',
]);

/** Errors that say the request was wrong, not that the number is: answered as refused. */
const REFUSALS = new Set(['INVALID_INPUT', 'INVALID_REQUESTER_INFO']);

type StatusAnswer = { vow: boolean; states: Map<string, Availability> };

type Attempt = ViesDecision | { kind: 'error'; code: string };

/** Name and address as VIES sends them: `---` (or nothing) when the Member State does not disclose them. */
function disclosed(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t === '' || /^-+$/.test(t) ? null : t.slice(0, 1000);
}

const text = (v: unknown, max: number) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : null);

/** The first VIES error code of a body (`{ actionSucceed: false, errorWrappers: [{ error }] }`), if any. */
function errorCode(body: unknown): string | undefined {
  const wrappers = (body as { errorWrappers?: unknown })?.errorWrappers;
  const first = Array.isArray(wrappers) ? (wrappers[0] as { error?: unknown } | undefined) : undefined;
  return typeof first?.error === 'string' && /^[A-Z0-9_-]{1,60}$/.test(first.error) ? first.error : undefined;
}

/** Reads one check-vat-number answer; nothing of the body reaches a message or a log. */
export function readCheckAnswer(status: number, body: unknown): Attempt {
  const code = errorCode(body);
  if (code !== undefined || (body as { actionSucceed?: unknown })?.actionSucceed === false) return { kind: 'error', code: code ?? 'HTTP_ERROR' };
  if (status !== 200 || typeof body !== 'object' || body === null || Array.isArray(body)) return { kind: 'error', code: 'HTTP_ERROR' };
  const b = body as Record<string, unknown>;
  const valid = typeof b.valid === 'boolean' ? b.valid : typeof b.isValid === 'boolean' ? b.isValid : undefined;
  if (valid === undefined) return { kind: 'error', code: 'HTTP_ERROR' };
  return {
    kind: valid ? 'valid' : 'invalid',
    requestDate: text(b.requestDate, 40),
    requestIdentifier: text(b.requestIdentifier, 100),
    name: valid ? disclosed(b.name) : null,
    address: valid ? disclosed(b.address) : null,
    attempts: 0,
  };
}

/**
 * The European Commission's VIES REST service (`POST check-vat-number`, `GET check-status`) at
 * `VIES_URL`: per-request timeout, retries with exponential backoff and jitter on transient errors,
 * and at most `VIES_MAX_CONCURRENT_PER_STATE` requests per Member State in flight from this process.
 */
export class ViesClient {
  private readonly limiter: StateLimiter;
  /** The last check-status answer (`answer` undefined: it did not answer), kept for `statusTtlMs`. */
  private status: { at: number; answer?: StatusAnswer } | undefined;

  constructor(private readonly config: Config['vies']) {
    this.limiter = new StateLimiter(config.maxConcurrentPerState);
  }

  /** Asks VIES about `state` + `number` (VIES codes: EL for Greece), with the requester if given. */
  async check(state: string, number: string, requester?: { state: string; number: string }): Promise<ViesAnswer> {
    const body = { countryCode: state, vatNumber: number, ...(requester ? { requesterMemberStateCode: requester.state, requesterNumber: requester.number } : {}) };
    let attempts = 0;
    let last = 'NETWORK_ERROR';
    for (let retry = 0; retry <= this.config.retries; retry++) {
      if (retry > 0) await sleep(this.backoff(retry));
      const slot = await this.limiter.run(state, this.config.timeoutMs, () => this.post(body));
      if (!slot.ran) {
        last = 'LOCAL_MAX_CONCURRENT_REQ';
        continue;
      }
      attempts++;
      const a = slot.value;
      if (a.kind !== 'error') return { ...a, attempts };
      last = a.code;
      if (REFUSALS.has(a.code)) return { kind: 'refused', reason: a.code, attempts };
      if (!TRANSIENT.has(a.code)) return { kind: 'unavailable', reason: a.code, attempts };
    }
    return { kind: 'unavailable', reason: last, attempts };
  }

  /** The Member State's availability per `check-status` (cached `VIES_STATUS_TTL_MS`); `unknown` when it does not answer. */
  async availability(state: string): Promise<Availability> {
    const now = Date.now();
    if (!this.status || now - this.status.at >= this.config.statusTtlMs) this.status = { at: now, answer: await this.fetchStatus() };
    const answer = this.status.answer;
    if (!answer) return 'unknown';
    if (!answer.vow) return 'Unavailable';
    return answer.states.get(state) ?? 'unknown';
  }

  /** Requests of `state` in flight now. */
  inFlight(state: string): number {
    return this.limiter.inFlight(state);
  }

  private backoff(retry: number): number {
    const base = this.config.backoffMs * 2 ** (retry - 1);
    return Math.round(base / 2 + Math.random() * (base / 2));
  }

  private async post(body: Record<string, string>): Promise<Attempt> {
    try {
      const res = await fetch(`${this.config.url}/check-vat-number`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      const parsed = await res.json().catch(() => undefined);
      return readCheckAnswer(res.status, parsed);
    } catch (err) {
      return { kind: 'error', code: (err as Error)?.name === 'TimeoutError' ? 'CLIENT_TIMEOUT' : 'NETWORK_ERROR' };
    }
  }

  private async fetchStatus(): Promise<StatusAnswer | undefined> {
    try {
      const res = await fetch(`${this.config.url}/check-status`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.config.timeoutMs) });
      if (res.status !== 200) return undefined;
      const b = (await res.json()) as { vow?: { available?: unknown }; countries?: unknown };
      const states = new Map<string, Availability>();
      for (const c of Array.isArray(b.countries) ? b.countries : []) {
        const { countryCode, availability } = c as { countryCode?: unknown; availability?: unknown };
        if (typeof countryCode !== 'string') continue;
        const a = availability === 'Available' || availability === 'Unavailable' || availability === 'Monitoring Disabled' ? availability : 'unknown';
        states.set(countryCode, a);
      }
      return { vow: b.vow?.available !== false, states };
    } catch {
      return undefined;
    }
  }
}
