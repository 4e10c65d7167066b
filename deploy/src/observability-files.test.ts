import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { registry, startProcessMetrics } from '@vat/platform/metrics';

const DIR = join(new URL('../observability', import.meta.url).pathname);
const PROMTOOL = process.env.PROMTOOL_BIN ?? '/usr/bin/promtool';

/** Metric names a PromQL expression uses (identifiers followed by `{`, `[` or `)`/space, not functions or labels). */
function metricNames(expr: string): string[] {
  const withoutLabels = expr.replace(/\{[^}]*\}/g, '{}').replace(/by \([^)]*\)/g, '');
  const words = withoutLabels.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? [];
  const FUNCTIONS = new Set(['sum', 'max', 'rate', 'histogram_quantile', 'scalar', 'by', 'le', 'humanizeDuration']);
  return words.filter((w) => !FUNCTIONS.has(w) && /_/.test(w));
}

/** The names the process can expose, histogram series included (`_bucket`, `_sum`, `_count`). */
function knownNames(): Set<string> {
  startProcessMetrics();
  const names = new Set<string>();
  for (const m of registry.getMetricsAsArray()) {
    names.add(m.name);
    for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${m.name}${suffix}`);
  }
  return names;
}

/** Issue 25: the operator files only name metrics the code defines, and Prometheus accepts them. */
describe('deploy/observability', () => {
  const rules = parseAllDocuments(readFileSync(join(DIR, 'alerts.yml'), 'utf8'))[0]!.toJS() as { groups: { rules: { record?: string; alert?: string; expr: string }[] }[] };
  const recorded = new Set(rules.groups.flatMap((g) => g.rules.map((r) => r.record).filter((r): r is string => !!r)));
  const known = knownNames();

  it('alert rules use only defined metrics and cover backlog age, projection lag, 5xx rate and p99 latency', () => {
    for (const r of rules.groups.flatMap((g) => g.rules)) {
      for (const name of metricNames(r.expr)) expect(known.has(name) || recorded.has(name), `${r.alert ?? r.record}: ${name}`).toBe(true);
    }
    const alerts = rules.groups.flatMap((g) => g.rules).filter((r) => r.alert);
    for (const metric of ['vat_outbox_oldest_pending_age_seconds', 'vat:projection_lag_supply_events', 'status_class="5xx"', 'histogram_quantile(0.99']) {
      expect(alerts.some((a) => a.expr.includes(metric)), metric).toBe(true);
    }
  });

  it('the Grafana dashboard uses only defined metrics', () => {
    const dashboard = JSON.parse(readFileSync(join(DIR, 'grafana/dashboards/eu-vat-service.json'), 'utf8')) as { panels: { targets?: { expr: string }[] }[] };
    const exprs = dashboard.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr);
    expect(exprs.length).toBeGreaterThan(10);
    for (const e of exprs) for (const name of metricNames(e)) expect(known.has(name) || recorded.has(name), `${e}: ${name}`).toBe(true);
  });

  it('promtool accepts the rules', () => {
    if (!existsSync(PROMTOOL)) {
      if (process.env.CI === 'true') throw new Error(`CI=true and no promtool at ${PROMTOOL}`);
      console.warn(`[observability] no promtool at ${PROMTOOL}: rules not checked by promtool`);
      return;
    }
    const r = spawnSync(PROMTOOL, ['check', 'rules', join(DIR, 'alerts.yml')], { encoding: 'utf8' });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  });
});
