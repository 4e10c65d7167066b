import { createRequire } from 'node:module';
import { trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { setTracingEnabled } from './tracing';
import { traceOutboxRows } from './outbox-trace';

let sdk: NodeSDK | undefined;
let fastifyInstrumentation: FastifyOtelInstrumentation | undefined;

/**
 * Starts the OpenTelemetry Node SDK for traces, configured by the standard OTEL_* variables
 * (exporter, endpoint, sampler, resource); metrics stay with prom-client and logs with pino, so the
 * SDK gets no metric reader or log processor. `spanProcessors` replaces the exporter from the
 * environment (tests pass an in-memory exporter). Loaded only when tracing is on.
 */
export function startTracing(serviceName: string, spanProcessors?: SpanProcessor[]): void {
  if (sdk) return;
  const pgInstrumentation = new PgInstrumentation({ requireParentSpan: true });
  fastifyInstrumentation = new FastifyOtelInstrumentation({ registerOnInitialization: false });
  sdk = new NodeSDK({ serviceName, instrumentations: [pgInstrumentation], metricReaders: [], logRecordProcessors: [], ...(spanProcessors ? { spanProcessors } : {}) });
  sdk.start();
  // Given the provider now registered: a tracer the instrumentation took before start() can stay a no-op
  // when its copy of the API (CommonJS) is not the one the SDK registered through (ESM).
  fastifyInstrumentation.setTracerProvider(trace.getTracerProvider());
  // The require hook does not see `import pg` from ESM: patch the one copy of pg every pool uses.
  const require = createRequire(import.meta.url);
  const [pgDefinition, poolDefinition] = (pgInstrumentation as unknown as { init(): { patch?: (m: unknown) => unknown }[] }).init();
  pgDefinition?.patch?.(require('pg'));
  poolDefinition?.patch?.(require('pg-pool'));
  traceOutboxRows(require('pg').Client);
  setTracingEnabled(true);
}

/** The Fastify plugin of `@fastify/otel` (one HTTP span per request), or undefined while tracing is off. */
export function fastifyTracingPlugin() {
  return fastifyInstrumentation?.plugin();
}

/** Flushes and stops the SDK (spans still buffered are exported). */
export async function stopTracing(): Promise<void> {
  const s = sdk;
  sdk = undefined;
  setTracingEnabled(false);
  await s?.shutdown();
}
