import pino, { type DestinationStream, type Logger } from 'pino';
import { context, trace } from '@opentelemetry/api';

/** `trace_id` and `span_id` of the active span on every line logged inside a traced request. */
function traceFields(): Record<string, string> {
  const sc = trace.getSpanContext(context.active());
  return sc && trace.isSpanContextValid(sc) ? { trace_id: sc.traceId, span_id: sc.spanId } : {};
}

/** The process logger, correlated with traces. API keys, internal tokens and VAT identifiers are redacted wherever they appear. */
export function createLogger(level: string, name: string, destination?: DestinationStream): Logger {
  return pino(
    {
    level,
    name,
    mixin: traceFields,
    redact: {
      paths: [
        'req.headers["x-api-key"]',
        'req.headers["x-vat-internal-token"]',
        'req.headers.authorization',
        'vat_registration_number',
        'ioss_intermediary_number',
        '*.vat_registration_number',
        '*.ioss_intermediary_number',
        '*.*.vat_registration_number',
        '*.*.ioss_intermediary_number',
        'vatRegistrationNumber',
        'iossIntermediaryNumber',
        '*.vatRegistrationNumber',
        '*.iossIntermediaryNumber',
        '*.*.vatRegistrationNumber',
        '*.*.iossIntermediaryNumber',
        'key',
        '*.key',
      ],
      censor: '[redacted]',
    },
  },
    destination ?? pino.destination(1),
  );
}
