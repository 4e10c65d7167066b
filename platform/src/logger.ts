import pino, { type DestinationStream, type Logger } from 'pino';
import { context, trace } from '@opentelemetry/api';

/** `trace_id` and `span_id` of the active span on every line logged inside a traced request. */
function traceFields(): Record<string, string> {
  const sc = trace.getSpanContext(context.active());
  return sc && trace.isSpanContextValid(sc) ? { trace_id: sc.traceId, span_id: sc.spanId } : {};
}

/** Fields whose value is never written, at whatever depth they sit: API keys, internal tokens, VAT and IOSS identifiers. */
const SECRET_FIELDS = ['x-api-key', 'x-vat-internal-token', 'authorization', 'key', 'vat_registration_number', 'ioss_intermediary_number', 'vatRegistrationNumber', 'iossIntermediaryNumber'];
const SECRET_FIELD = new Set(SECRET_FIELDS);
/** A line naming one of them as a JSON field (`"key":`; an escaped quote inside a string value never matches). */
const NAMES_SECRET_FIELD = new RegExp(`"(?:${SECRET_FIELDS.join('|')})":`);
const CENSOR = '[redacted]';

function censor(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(censor);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELD.has(k) ? CENSOR : censor(v);
  return out;
}

/**
 * Redacts one finished log line. Nearly every line names no secret field and is written as it is
 * (one regular-expression test); a line that does is parsed, every such field at any depth is
 * replaced by `[redacted]`, and the line is written again. pino's own `redact` option walks its
 * wildcard paths on every line (about 20 µs a request for the gateway's two lines), so the policy
 * is applied here instead (docs/observability.md, "Logs").
 */
export function redactLine(line: string): string {
  if (!NAMES_SECRET_FIELD.test(line)) return line;
  try {
    return `${JSON.stringify(censor(JSON.parse(line)))}\n`;
  } catch {
    return `${JSON.stringify({ level: 50, time: Date.now(), msg: 'A log line that names a secret field could not be parsed; it was withheld.' })}\n`;
  }
}

/** The process logger, correlated with traces. API keys, internal tokens and VAT identifiers are redacted wherever they appear. */
export function createLogger(level: string, name: string, destination?: DestinationStream): Logger {
  return pino({ level, name, mixin: traceFields, hooks: { streamWrite: redactLine } }, destination ?? pino.destination(1));
}
