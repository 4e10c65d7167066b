import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', 'data/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time (vitest's default on a 2-core machine is one): most suites wait on processes,
    // timers and PostgreSQL rather than compute, so the whole run takes ≈ 400 s instead of ≈ 700 s here. Every
    // suite has its own database, DATA_DIR, ports and (distributed ones) a private NATS server; at most ≈ 40
    // sessions reach the shared PostgreSQL at once (of its 100).
    maxWorkers: 2,
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/openapi-conformance.ts'],
  },
});
