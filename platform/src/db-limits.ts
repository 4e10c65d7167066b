/**
 * How long a call waits for a database connection (a new one, or a free one from the pool) before it
 * fails, and answers 503, instead of hanging while the database host does not answer at all.
 */
export const CONNECT_TIMEOUT_MS = 10_000;
/** How long a statement waits for a lock (or, embedded, for the database session) before it fails with 503. */
export const LOCK_WAIT_MS = 20_000;
/** How long a session may sit idle inside an open transaction before the database ends it. */
export const IDLE_IN_TRANSACTION_MS = 60_000;
