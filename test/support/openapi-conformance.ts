import { afterEach, expect } from 'vitest';
import { observeConformance, type Violation } from '@vat/gateway/openapi/conformance';

/**
 * Every vitest file loads this (vitest.config.ts `setupFiles`). In the gateway suites (gateway/test)
 * and the generated-client end-to-end test, every answer of every in-process gateway is checked
 * against its OpenAPI document (status documented, content type, body schema with undocumented
 * members refused), and a test that drew an undocumented answer fails with the list.
 */
const CHECKED = [/\/gateway\/test\//, /\/test\/e2e\/openapi-client\.test\.ts$/];

const violations: Violation[] = [];
observeConformance((v) => violations.push(v));

afterEach((ctx) => {
  const found = violations.splice(0);
  if (!CHECKED.some((re) => re.test(ctx.task.file.filepath))) return;
  const lines = found.map((v) => `${v.operation} answered ${v.status}: ${v.problem}\n    body: ${v.body}`);
  expect(lines, 'answers the OpenAPI document does not describe (fix the route\'s `responses`/`errors` declaration in gateway/src/routes/, or the answer)').toEqual([]);
});
