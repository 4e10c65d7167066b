/** Elapsed wall-clock and process CPU milliseconds, as logged by the start-up timing lines. */
type Elapsed = { ms: number; cpuMs: number };

/**
 * Starts measuring; the returned function gives the time since. CPU time is the process's (user + system), which
 * on a busy machine says more about the work done than wall-clock time does.
 */
export function stopwatch(): () => Elapsed {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  return () => {
    const c = process.cpuUsage(c0);
    return { ms: Math.round(performance.now() - t0), cpuMs: Math.round((c.user + c.system) / 1000) };
  };
}
