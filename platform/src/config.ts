import { z } from 'zod';
import { DEFAULT_DATA_DIR } from './config-defaults';

export const SERVICE_NAMES = ['calculation', 'classification', 'compliance-reports', 'thresholds', 'ledger'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

const url = z.string().url();
const port = z.coerce.number().int().min(0).max(65535);

const envSchema = z.object({
  HOST: z.string().default('0.0.0.0'),
  PORT: port.default(8080),
  DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
  DATABASE_URL: url.optional(),
  NATS_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10 * 1024 * 1024).default(65536),
  SERVICE_PORT: port.optional(),
  CALCULATION_URL: url.default('http://127.0.0.1:9101'),
  CLASSIFICATION_URL: url.default('http://127.0.0.1:9102'),
  COMPLIANCE_REPORTS_URL: url.default('http://127.0.0.1:9103'),
  THRESHOLDS_URL: url.default('http://127.0.0.1:9104'),
  LEDGER_URL: url.default('http://127.0.0.1:9105'),
  INTERNAL_TOKEN: z.string().min(16).optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).max(60000).default(250),
  OUTBOX_RETENTION_HOURS: z.coerce.number().int().min(0).max(24 * 3650).default(168),
  DATA_ENCRYPTION_KEY: z.string().optional(),
  DATABASE_WAIT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  DATABASE_PREPARED_STATEMENTS: z.enum(['on', 'off']).default('on'),
  DATABASE_IDLE_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(600_000),
  VIES_URL: url.default('https://ec.europa.eu/taxation_customs/vies/rest-api'),
  VIES_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8_000),
  VIES_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  VIES_BACKOFF_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  VIES_MAX_CONCURRENT_PER_STATE: z.coerce.number().int().min(1).max(100).default(2),
  VIES_STATUS_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  VIES_REUSE_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  OVERDUE_CHECK_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(3_600_000),
  METRICS_TOKEN: z.string().min(16).optional(),
  GATEWAY_METRICS: z.enum(['on', 'off']).default('on'),
  // The standard OpenTelemetry switches (the SDK reads the rest of OTEL_* itself).
  OTEL_TRACES_EXPORTER: z.string().optional(),
  OTEL_SDK_DISABLED: z.enum(['true', 'false']).optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(30),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(12),
  SESSION_COOKIE_SECURE: z.enum(['true', 'false']).default('false'),
});

export type Config = {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  natsUrl?: string;
  redisUrl?: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  bodyLimitBytes: number;
  servicePort?: number;
  serviceUrls: Record<ServiceName, string>;
  internalToken?: string;
  rateLimitPerMinute: number;
  outboxPollMs: number;
  /** Hours a published outbox row is kept before the relay deletes it (0 = forever). */
  outboxRetentionHours: number;
  /** Text form of the 32-byte key for data encrypted at rest; checked by the processes that use it (platform/src/crypto.ts). */
  dataEncryptionKey?: string;
  /**
   * How long a statement waits for a lock (PostgreSQL `lock_timeout`) or, embedded, for the single database
   * session held by another connection, before it fails with SQLSTATE 55P03 (answered 503).
   */
  databaseWaitMs: number;
  /**
   * Hot statements run as named (server-side prepared) statements on a TCP DATABASE_URL (platform/src/prepared.ts);
   * `DATABASE_PREPARED_STATEMENTS=off` turns them off, e.g. behind a pooler in transaction mode that does not keep them.
   */
  databasePreparedStatements: boolean;
  /**
   * How long a server keeps an idle pooled database connection open (the pg pool's `idleTimeoutMillis`; its own
   * default, 10 s, is what the admin CLI and tests keep). A new connection is a new PostgreSQL backend, whose first
   * large read runs about twice as slow (docs/operations.md, "Database connections").
   */
  databaseIdleMs: number;
  /** The VIES REST client (compliance-reports): base URL, per-request timeout, retries, per-Member-State limit. */
  vies: {
    url: string;
    timeoutMs: number;
    retries: number;
    /** First backoff delay; doubled at each retry, with jitter. */
    backoffMs: number;
    maxConcurrentPerState: number;
    /** How long a check-status answer is used before asking again. */
    statusTtlMs: number;
    /** Days a definitive (valid or invalid) answer is reused instead of asking VIES again (0 = always ask). */
    reuseDays: number;
  };
  /**
   * How often compliance-reports looks for return periods that became overdue and announces each once
   * (`ReturnPeriodOverdue`); 0 turns the background check off (the filing calendar still detects on read).
   */
  overdueCheckIntervalMs: number;
  /** When set, the gateway's `/metrics` answers only `Authorization: Bearer <token>` (service health ports stay open). */
  metricsToken?: string;
  /** `off` serves no `/metrics` on the public gateway port (scrape the service health ports instead). */
  gatewayMetrics: boolean;
  /**
   * Traces are on only when OTEL_TRACES_EXPORTER names an exporter (not `none`) and OTEL_SDK_DISABLED
   * is not `true`: off by default, and then no SDK is even loaded.
   */
  tracing: boolean;
  /** Dashboard sessions end after this long unused (SESSION_IDLE_MINUTES, default 30)… */
  sessionIdleMinutes: number;
  /** …and this long after sign-in in any case (SESSION_MAX_HOURS, default 12). */
  sessionMaxHours: number;
  /** `Secure` on the session cookie: set SESSION_COOKIE_SECURE=true when clients reach the gateway over TLS. */
  sessionCookieSecure: boolean;
};

/** Parses the environment once at start; nothing else reads process.env. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    natsUrl: e.NATS_URL,
    redisUrl: e.REDIS_URL,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    servicePort: e.SERVICE_PORT,
    serviceUrls: {
      calculation: e.CALCULATION_URL,
      classification: e.CLASSIFICATION_URL,
      'compliance-reports': e.COMPLIANCE_REPORTS_URL,
      thresholds: e.THRESHOLDS_URL,
      ledger: e.LEDGER_URL,
    },
    internalToken: e.INTERNAL_TOKEN,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    outboxPollMs: e.OUTBOX_POLL_MS,
    outboxRetentionHours: e.OUTBOX_RETENTION_HOURS,
    dataEncryptionKey: e.DATA_ENCRYPTION_KEY,
    databaseWaitMs: e.DATABASE_WAIT_MS,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS === 'on',
    databaseIdleMs: e.DATABASE_IDLE_MS,
    vies: {
      url: e.VIES_URL.replace(/\/+$/, ''),
      timeoutMs: e.VIES_TIMEOUT_MS,
      retries: e.VIES_RETRIES,
      backoffMs: e.VIES_BACKOFF_MS,
      maxConcurrentPerState: e.VIES_MAX_CONCURRENT_PER_STATE,
      statusTtlMs: e.VIES_STATUS_TTL_MS,
      reuseDays: e.VIES_REUSE_DAYS,
    },
    overdueCheckIntervalMs: e.OVERDUE_CHECK_INTERVAL_MS,
    metricsToken: e.METRICS_TOKEN,
    gatewayMetrics: e.GATEWAY_METRICS === 'on',
    tracing: e.OTEL_SDK_DISABLED !== 'true' && !!e.OTEL_TRACES_EXPORTER && e.OTEL_TRACES_EXPORTER.split(',').some((x) => x.trim() !== '' && x.trim() !== 'none'),
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    sessionCookieSecure: e.SESSION_COOKIE_SECURE === 'true',
  };
}

/** The default port of each service process in distributed mode. */
export const DEFAULT_SERVICE_PORTS: Record<ServiceName, number> = {
  calculation: 9101,
  classification: 9102,
  'compliance-reports': 9103,
  thresholds: 9104,
  ledger: 9105,
};
