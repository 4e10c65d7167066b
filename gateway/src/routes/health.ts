import { arrayOf, boolean, object, string, strings } from '../openapi/shapes';
import type { RouteDef } from '../route';

const CHECK = object({ name: string, ok: boolean, detail: string });

export type ReadinessReport = { ready: boolean; checks: { name: string; ok: boolean; detail: string }[] };

export function healthRoutes(readiness: () => Promise<ReadinessReport>): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/health',
      access: 'public',
      summary: 'Liveness',
      tags: ['health'],
      responses: { 200: object({ status: { type: 'string', enum: ['ok'] } }) },
      errors: {},
      handler: async () => ({ status: 'ok' }),
    },
    {
      method: 'GET',
      url: '/ready',
      access: 'public',
      summary: 'Readiness: database, migrations, reference data and (distributed) NATS',
      tags: ['health'],
      responses: { 200: object({ status: { type: 'string', enum: ['ready'] }, checks: arrayOf(CHECK) }), 503: object({ status: { type: 'string', enum: ['not_ready'] }, missing: strings, checks: arrayOf(CHECK) }) },
      errors: {},
      handler: async ({ reply }) => {
        const report = await readiness().catch((err: Error) => ({ ready: false, checks: [{ name: 'readiness', ok: false, detail: err.message }] }));
        if (report.ready) return { status: 'ready', checks: report.checks };
        reply.status(503);
        return { status: 'not_ready', missing: report.checks.filter((c) => !c.ok).map((c) => c.name), checks: report.checks };
      },
    },
  ];
}
