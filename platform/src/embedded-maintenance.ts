import type pg from 'pg';
import type { Logger } from 'pino';

/**
 * PGlite runs PostgreSQL in single-user mode: no autovacuum worker ever refreshes the planner's
 * statistics. Without it a table that grew after its last ANALYZE keeps the estimates of its
 * small self, and the planner can pick a plan that sorts a whole account for every keyset batch
 * (measured: an export of 200,000 rows took 99 s instead of 3 s). So the embedded mode runs ANALYZE
 * itself: `firstMs` after start, then every `everyMs`. ANALYZE samples a bounded number of rows per
 * table (300 × default_statistics_target), so one pass costs milliseconds to a few hundred on large
 * tables, and it is a statement of its own: it never holds the session while waiting on anything.
 */
export class EmbeddedStatistics {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: Logger,
    private readonly opts: { firstMs: number; everyMs: number },
  ) {}

  start(): void {
    this.schedule(this.opts.firstMs);
  }

  /** Refreshes the statistics of every table now. */
  async analyze(): Promise<void> {
    const started = performance.now();
    await this.pool.query('analyze');
    this.log.debug({ ms: Math.round(performance.now() - started) }, 'embedded database: planner statistics refreshed');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.analyze()
        .catch((err: Error) => this.log.warn({ err: err.message }, 'embedded database: ANALYZE failed; will retry'))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.opts.everyMs);
        });
    }, ms);
    this.timer.unref();
  }
}
