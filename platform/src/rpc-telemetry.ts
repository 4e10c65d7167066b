import { ConnectError, type Interceptor } from '@connectrpc/connect';
import { context, propagation, SpanKind, SpanStatusCode, trace, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { connectCodeLabel, returnsFiled, rpcClientCalls, rpcServerCalls } from './metrics';
import { tracer, tracingEnabled } from './tracing';

const getter: TextMapGetter<Headers> = { keys: (h) => [...h.keys()], get: (h, k) => h.get(k) ?? undefined };
const setter: TextMapSetter<Headers> = { set: (h, k, v) => h.set(k, v) };

/** Successful calls that stand for a domain counter (the rest come from the outbox, see metrics.ts). */
const DOMAIN_BY_METHOD: Record<string, () => void> = {
  'vat.compliance_reports.v1.UnionOssReportService/MarkUnionOssPeriodFiled': () => returnsFiled.inc(),
};

function codeOf(err: unknown): number {
  return ConnectError.from(err).code;
}

/**
 * Server side of every Connect call (any transport): calls and duration by service, method and code,
 * and, with tracing on, a SERVER span continuing the caller's trace (the `traceparent` header over
 * HTTP/2, where no HTTP instrumentation sees Node's HTTP/2 server; the active context in process).
 */
export function rpcServerTelemetryInterceptor(): Interceptor {
  return (next) => async (req) => {
    const labels = { service: req.service.typeName, method: req.method.name };
    const started = performance.now();
    const done = (code: string) => rpcServerCalls.record(labels.service, labels.method, code, (performance.now() - started) / 1000);
    let run = () => next(req);
    if (tracingEnabled()) {
      const active = context.active();
      const parent = trace.getSpan(active) ? active : propagation.extract(active, req.header, getter);
      const span = tracer.startSpan(`${labels.service}/${labels.method}`, {
        kind: SpanKind.SERVER,
        attributes: { 'rpc.system': 'connect_rpc', 'rpc.service': labels.service, 'rpc.method': labels.method },
      }, parent);
      const inner = run;
      run = () =>
        context.with(trace.setSpan(parent, span), inner).then(
          (res) => {
            span.end();
            return res;
          },
          (err: unknown) => {
            span.setAttribute('rpc.connect_rpc.error_code', connectCodeLabel(codeOf(err)));
            span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
            span.end();
            throw err;
          },
        );
    }
    try {
      const res = await run();
      done('ok');
      DOMAIN_BY_METHOD[`${labels.service}/${labels.method}`]?.();
      return res;
    } catch (err) {
      done(connectCodeLabel(codeOf(err)));
      throw err;
    }
  };
}

/**
 * Client side of a network call: calls and duration by service, method and code, and, with tracing
 * on, a CLIENT span whose context goes out in the `traceparent` header.
 */
export function rpcClientTelemetryInterceptor(): Interceptor {
  return (next) => async (req) => {
    const labels = { service: req.service.typeName, method: req.method.name };
    const started = performance.now();
    const done = (code: string) => rpcClientCalls.record(labels.service, labels.method, code, (performance.now() - started) / 1000);
    const span = tracingEnabled()
      ? tracer.startSpan(`${labels.service}/${labels.method}`, { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'connect_rpc', 'rpc.service': labels.service, 'rpc.method': labels.method } })
      : undefined;
    if (span) propagation.inject(trace.setSpan(context.active(), span), req.header, setter);
    try {
      const res = await next(req);
      done('ok');
      span?.end();
      return res;
    } catch (err) {
      const code = connectCodeLabel(codeOf(err));
      done(code);
      if (span) {
        span.setAttribute('rpc.connect_rpc.error_code', code);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        span.end();
      }
      throw err;
    }
  };
}
