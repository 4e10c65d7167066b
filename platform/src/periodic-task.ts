import type { Logger } from 'pino';

/** The timer functions a periodic task schedules with (injectable, so tests drive time by hand). */
export type Timers = {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A module's background work, started once the process's bus and relays run, stopped before they stop. */
export type BackgroundTask = { readonly name: string; start(): void; stop(): Promise<void> };

/**
 * Runs `run` once at start and then `everyMs` after the end of the previous run (never two runs of one task
 * at once in a process; several replicas each run their own, so `run` must be safe to repeat and to run
 * concurrently). A failed run is logged and the next comes on schedule. `everyMs` 0 never runs it.
 */
export class PeriodicTask implements BackgroundTask {
  private timer: unknown;
  private current: Promise<void> | undefined;
  private stopped = false;
  private started = false;

  constructor(
    readonly name: string,
    private readonly everyMs: number,
    private readonly run: () => Promise<unknown>,
    private readonly log: Pick<Logger, 'error'>,
    private readonly timers: Timers = realTimers,
  ) {}

  start(): void {
    if (this.started || this.everyMs <= 0) return;
    this.started = true;
    this.schedule(0);
  }

  /** Stops scheduling and waits for a run in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    await this.current;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.current = this.once().finally(() => {
        this.current = undefined;
        this.schedule(this.everyMs);
      });
    }, ms);
  }

  private async once(): Promise<void> {
    try {
      await this.run();
    } catch (err) {
      this.log.error({ err, task: this.name }, 'background task failed; it runs again at its next interval');
    }
  }
}
