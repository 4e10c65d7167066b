/** Thrown by `withDeadline` when the work did not settle in time. */
export class DeadlineExceeded extends Error {
  constructor(what: string, ms: number) {
    super(`${what}: no answer within ${ms} ms`);
    this.name = 'DeadlineExceeded';
  }
}

/**
 * Settles like `work`, or rejects with `DeadlineExceeded` after `ms`: a probe of a stuck dependency
 * answers "not ready" in time instead of hanging its caller (the work itself is left to finish).
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(what, ms)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long one readiness probe (a database `select 1`, a service's readiness RPC) may take. */
export const READINESS_PROBE_MS = 2_000;
