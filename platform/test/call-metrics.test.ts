import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { CallMetrics } from '../src/call-metrics';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LABELS = ['route', 'method', 'status_class'] as const;

/** The same observations through prom-client's own Counter and Histogram, the exposition CallMetrics must match. */
function reference(observations: [string, string, string, number][]): Registry {
  const registry = new Registry();
  const counter = new Counter({ name: 'calls_total', help: 'Calls.', labelNames: LABELS, registers: [registry] });
  const histogram = new Histogram({ name: 'call_duration_seconds', help: 'Call time.', labelNames: LABELS, buckets: BUCKETS, registers: [registry] });
  for (const [route, method, status_class, seconds] of observations) {
    counter.inc({ route, method, status_class });
    histogram.observe({ route, method, status_class }, seconds);
  }
  return registry;
}

function ours(observations: [string, string, string, number][]): Registry {
  const registry = new Registry();
  const calls = new CallMetrics(registry, { counter: { name: 'calls_total', help: 'Calls.' }, histogram: { name: 'call_duration_seconds', help: 'Call time.' }, labelNames: LABELS, buckets: BUCKETS });
  for (const [a, b, c, seconds] of observations) calls.record(a, b, c, seconds);
  return registry;
}

describe('CallMetrics: a counter and histogram kept as plain numbers, exposed like prom-client', () => {
  it('hand-made: three calls in two series, bucket edges inclusive, the slowest past the last bound', async () => {
    const text = await ours([
      ['/v1/a', 'GET', '2xx', 0.005],
      ['/v1/a', 'GET', '2xx', 0.2],
      ['/v1/b/:id', 'POST', '4xx', 31],
    ]).metrics();
    // 0.005 falls in le="0.005" (bounds are inclusive); 0.2 first fits le="0.25"; 31 only in +Inf.
    expect(text).toContain('calls_total{route="/v1/a",method="GET",status_class="2xx"} 2');
    expect(text).toContain('call_duration_seconds_bucket{le="0.005",route="/v1/a",method="GET",status_class="2xx"} 1');
    expect(text).toContain('call_duration_seconds_bucket{le="0.1",route="/v1/a",method="GET",status_class="2xx"} 1');
    expect(text).toContain('call_duration_seconds_bucket{le="0.25",route="/v1/a",method="GET",status_class="2xx"} 2');
    expect(text).toContain('call_duration_seconds_sum{route="/v1/a",method="GET",status_class="2xx"} 0.205');
    expect(text).toContain('call_duration_seconds_bucket{le="30",route="/v1/b/:id",method="POST",status_class="4xx"} 0');
    expect(text).toContain('call_duration_seconds_bucket{le="+Inf",route="/v1/b/:id",method="POST",status_class="4xx"} 1');
    expect(text).toContain('call_duration_seconds_count{route="/v1/b/:id",method="POST",status_class="4xx"} 1');
  });

  it('property: for any sequence of calls the exposition is byte-identical to prom-client Counter + Histogram', async () => {
    const call = fc.tuple(fc.constantFrom('/v1/a', '/v1/b/:id', 'unmatched', 'x"y\\z'), fc.constantFrom('GET', 'POST'), fc.constantFrom('2xx', '4xx', '5xx'), fc.oneof(fc.constantFrom(...BUCKETS), fc.double({ min: 0, max: 60, noNaN: true })));
    await fc.assert(
      fc.asyncProperty(fc.array(call, { maxLength: 40 }), async (observations) => {
        expect(await ours(observations).metrics()).toBe(await reference(observations).metrics());
      }),
      { numRuns: 300 },
    );
  });
});
