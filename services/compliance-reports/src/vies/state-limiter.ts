/** At most `max` requests in flight per Member State; the others wait in order, up to a deadline. */
export class StateLimiter {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly max: number) {}

  /** Runs `work` once a slot of `state` is free; `undefined` when none freed up within `waitMs`. */
  async run<T>(state: string, waitMs: number, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    if (!(await this.acquire(state, waitMs))) return { ran: false };
    try {
      return { ran: true, value: await work() };
    } finally {
      this.release(state);
    }
  }

  /** Requests of `state` in flight now (for tests and metrics). */
  inFlight(state: string): number {
    return this.active.get(state) ?? 0;
  }

  private acquire(state: string, waitMs: number): Promise<boolean> {
    const n = this.active.get(state) ?? 0;
    if (n < this.max) {
      this.active.set(state, n + 1);
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const queue = this.waiting.get(state) ?? [];
      this.waiting.set(state, queue);
      const grant = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const i = queue.indexOf(grant);
        if (i >= 0) queue.splice(i, 1);
        resolve(false);
      }, waitMs);
      queue.push(grant);
    });
  }

  private release(state: string): void {
    const next = this.waiting.get(state)?.shift();
    // The slot passes straight to the next waiter, so the count stays the same.
    if (next) next();
    else this.active.set(state, (this.active.get(state) ?? 1) - 1);
  }
}
