import { describe, expect, it } from 'vitest';
import type { Clients } from '@vat/platform/clients';
import { compileWireSchema } from '../src/edge/validation';
import type { RouteDef } from '../src/route';
import { dashboardRoutes } from '../src/routes/dashboard';
import { healthRoutes } from '../src/routes/health';
import { allRoutes } from '../src/routes/index';

/**
 * The gateway compiles a route's request schemas on the route's first request, not at start
 * (gateway/src/edge/validation.ts): this compiles every one of them, so a schema Ajv refuses fails here.
 */
describe('route request schemas', () => {
  const routes: RouteDef[] = [
    ...healthRoutes(async () => ({ ready: true, checks: [] })),
    ...allRoutes({} as Clients, async () => false),
    ...dashboardRoutes({ assets: undefined }),
  ];
  const parts = ['body', 'querystring', 'params', 'headers'] as const;

  it('every body, query, path and header schema of every route compiles', () => {
    let compiled = 0;
    for (const def of routes) {
      if (def.validate === false) continue;
      for (const part of parts) {
        const schema = (def.schema as Record<string, unknown> | undefined)?.[part];
        if (schema === undefined) continue;
        expect(() => compileWireSchema(schema), `${def.method} ${def.url} ${part}`).not.toThrow();
        compiled++;
      }
    }
    // 76 when this test was written: every route with a body, query, path or header schema.
    expect(compiled).toBeGreaterThan(50);
    console.log(`[route schemas] ${routes.length} routes, ${compiled} request schemas compiled`);
  });

  it('a compiled schema validates: a wrong JSON type is refused, a right one passes', () => {
    const validate = compileWireSchema({ type: 'object', properties: { n: { type: 'integer', minimum: 5 } }, required: ['n'] });
    expect(validate({ n: 'x' })).toBe(false);
    // `minimum` documents a business rule: the service enforces it, the wire projection drops it.
    expect(validate({ n: 1 })).toBe(true);
  });
});
