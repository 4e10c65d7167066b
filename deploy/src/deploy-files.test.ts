/**
 * Static checks of the deployment files (docker-compose.yml, Dockerfile, deploy/k8s/*.yaml) against the
 * code: every process the composition root knows about must be deployed, probed on the right port and
 * path, started in the right mode, and reachable at the URL the gateway is configured with.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { DEFAULT_SERVICE_PORTS, SERVICE_NAMES, loadConfig, type ServiceName } from '@vat/platform/config';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const K8S_DIR = join(ROOT, 'deploy/k8s');
const PROCESSES = [...SERVICE_NAMES, 'gateway'] as const;
/**
 * Each process's young generation (V8 semi-space, MiB): 8, but 16 where bulk ingestion's garbage collection took
 * 15-30 % less time for 10-20 MB more at the peak (docs/operations.md, "Memory").
 */
const YOUNG_GENERATION_MIB: Record<(typeof PROCESSES)[number], number> = {
  calculation: 8, classification: 8, 'compliance-reports': 16, thresholds: 8, ledger: 8, gateway: 16,
};
type Process = (typeof PROCESSES)[number];
const GATEWAY_PORT = 8080;

type Obj = Record<string, any>;

/** Parses every document of a YAML file, failing on any syntax error (merge keys `<<` resolved, as compose does). */
function parseYamlFile(path: string): Obj[] {
  const docs = parseAllDocuments(readFileSync(path, 'utf8'), { merge: true });
  if (!Array.isArray(docs)) return [];
  for (const d of docs) expect(d.errors.map((e) => e.message), `YAML errors in ${path}`).toEqual([]);
  return docs.map((d) => d.toJS() as Obj).filter((d) => d != null);
}

/** The environment variable the gateway reads a service's URL from, e.g. COMPLIANCE_REPORTS_URL. */
function urlVar(name: ServiceName): string {
  return `${name.toUpperCase().replace(/-/g, '_')}_URL`;
}

/** The port a service process serves /health and /ready on (see deploy/src/build.ts). */
function healthPort(p: Process): number {
  return p === 'gateway' ? GATEWAY_PORT : DEFAULT_SERVICE_PORTS[p] + 1000;
}

/** Port number of a URL, with the scheme's default when absent. */
function urlPort(u: URL): number {
  return Number(u.port || (u.protocol === 'https:' ? 443 : 80));
}

/** Resolves compose `${VAR:-default}` / `${VAR-default}` interpolation to the default (the CI view). */
function interpolate(value: unknown): string {
  return String(value).replace(/\$\{([A-Z0-9_]+)(?::?-([^}]*))?\}/g, (_m, _v, def: string | undefined) => def ?? '');
}

/** Compose `environment` as a map, whether written as a map or as a list of KEY=VALUE. */
function composeEnv(svc: Obj): Record<string, string> {
  const env = svc.environment ?? {};
  const entries: [string, unknown][] = Array.isArray(env)
    ? env.map((e: string) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)])
    : Object.entries(env);
  return Object.fromEntries(entries.map(([k, v]) => [k, interpolate(v)]));
}

/** docker-compose.yml's services (read once: the compose tests and the k8s ones compare against it). */
let compose: Obj | undefined;
function composeServices(): Obj {
  compose ??= parseYamlFile(join(ROOT, 'docker-compose.yml'))[0]?.services ?? {};
  return compose!;
}

function asArgs(command: unknown): string[] {
  if (Array.isArray(command)) return command.map(String);
  if (typeof command === 'string') return command.trim().split(/\s+/);
  return [];
}

describe('docker-compose.yml', () => {
  const services = composeServices();

  it('has PostgreSQL 15 with a pg_isready healthcheck', () => {
    const pg = services.postgres;
    expect(pg, 'postgres service').toBeDefined();
    expect(String(pg.image)).toMatch(/^postgres:15/);
    expect(asArgs(pg.healthcheck?.test).join(' ')).toContain('pg_isready');
    const env = composeEnv(pg);
    expect(env.POSTGRES_DB).toBe('vat');
  });

  it('has NATS with JetStream enabled and a volume for its store', () => {
    const nats = services.nats;
    expect(nats, 'nats service').toBeDefined();
    expect(String(nats.image)).toMatch(/^nats:2/);
    const args = asArgs(nats.command);
    expect(args).toContain('-js');
    const sd = args.indexOf('-sd') >= 0 ? args[args.indexOf('-sd') + 1] : undefined;
    expect(sd, 'NATS store directory (-sd)').toBeDefined();
    const mounts = (nats.volumes ?? []).map((v: unknown) => (typeof v === 'string' ? v.split(':')[1] : (v as Obj).target));
    expect(mounts, 'a volume mounted at the JetStream store directory').toContain(sd);
  });

  it('has Redis 7', () => {
    expect(services.redis, 'redis service').toBeDefined();
    expect(String(services.redis.image)).toMatch(/^redis:7/);
  });

  it.each(PROCESSES)('runs %s from the Dockerfile in its own mode with a /ready healthcheck', (p) => {
    const svc = services[p];
    expect(svc, `compose service "${p}"`).toBeDefined();
    expect(svc.build, `${p} is built from the repo Dockerfile`).toBeDefined();
    expect(asArgs(svc.command)[0], `${p} command selects the mode`).toBe(p);
    const test = asArgs(svc.healthcheck?.test).join(' ');
    expect(test, `${p} healthcheck`).toContain(`:${healthPort(p)}/ready`);
    expect(svc.healthcheck?.disable ?? false).toBe(false);
    const env = composeEnv(svc);
    if (p !== 'gateway' && env.SERVICE_PORT !== undefined) expect(Number(env.SERVICE_PORT)).toBe(DEFAULT_SERVICE_PORTS[p]);
    if (p === 'gateway' && env.PORT !== undefined) expect(Number(env.PORT)).toBe(GATEWAY_PORT);
  });

  it.each(PROCESSES)('caps the V8 heap of %s (docs/operations.md, "Memory")', (p) => {
    expect(composeEnv(services[p] ?? {}).NODE_OPTIONS).toMatch(/^--max-old-space-size=\d+ --max-semi-space-size=\d+$/);
    expect(composeEnv(services[p] ?? {}).NODE_OPTIONS).toMatch(new RegExp(` --max-semi-space-size=${YOUNG_GENERATION_MIB[p]}$`));
  });

  it.each(PROCESSES)('gives %s a configuration the app accepts, pointing at the compose services', (p) => {
    const env = composeEnv(services[p] ?? {});
    expect(env.DATABASE_URL).toBe('postgresql://postgres:postgres@postgres:5432/vat');
    expect(env.NATS_URL).toBe('nats://nats:4222');
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    const config = loadConfig(env); // throws on anything config.ts rejects (e.g. a short INTERNAL_TOKEN)
    expect(config.internalToken, 'INTERNAL_TOKEN').toBeDefined();
    for (const name of SERVICE_NAMES) {
      const u = new URL(config.serviceUrls[name]);
      expect(u.hostname, `${urlVar(name)} host`).toBe(name);
      expect(urlPort(u), `${urlVar(name)} port`).toBe(DEFAULT_SERVICE_PORTS[name]);
      expect(services[u.hostname], `${urlVar(name)} names a compose service`).toBeDefined();
    }
  });

  it.each(PROCESSES)('starts %s only after its dependencies', (p) => {
    const deps: Obj = services[p]?.depends_on ?? {};
    expect(Array.isArray(deps), 'depends_on uses the long form with conditions').toBe(false);
    expect(deps.postgres?.condition).toBe('service_healthy');
    expect(deps.nats?.condition).toBeDefined();
    expect(deps.redis?.condition).toBeDefined();
    if (p === 'gateway') for (const name of SERVICE_NAMES) expect(deps[name]?.condition, `gateway waits for ${name}`).toBe('service_healthy');
  });

  it('publishes the gateway from 8080 on, one host port per replica (`docker compose up --scale gateway=2`)', () => {
    const ports = (services.gateway?.ports ?? []).map((x: unknown) => (typeof x === 'object' ? `${(x as Obj).published}:${(x as Obj).target}` : String(x)));
    expect(ports.some((x: string) => /(^|:)8080-80[1-9][0-9]:8080$/.test(x)), ports.join(', ')).toBe(true);
  });

  it.each(PROCESSES)('lets %s scale: no container_name, no fixed host port of a service', (p) => {
    const svc = services[p] ?? {};
    expect(svc.container_name).toBeUndefined();
    if (p !== 'gateway') expect(svc.ports ?? []).toEqual([]);
  });
});

describe('Dockerfile', () => {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  // One entry per instruction: continuation lines (a trailing backslash) joined.
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));

  it('builds on node:24-slim with npm ci, runs as non-root and defaults to the gateway', () => {
    expect(lines.find((l) => /^FROM\s/i.test(l))).toMatch(/^FROM\s+node:24-slim\b/i);
    expect(lines.some((l) => /^RUN\s.*\bnpm ci\b/i.test(l))).toBe(true);
    const user = lines.filter((l) => /^USER\s/i.test(l)).at(-1);
    expect(user, 'a USER instruction').toBeDefined();
    expect(user).not.toMatch(/^USER\s+(root|0)(:|\s|$)/i);
    const entrypoint = JSON.parse(lines.find((l) => /^ENTRYPOINT\s/i.test(l))!.replace(/^ENTRYPOINT\s+/i, '')) as string[];
    // The compiled entry point (deploy/bundle.mjs), built in the image.
    expect(entrypoint).toEqual(['node', 'deploy/bin/main.mjs']);
    expect(lines.some((l) => /^RUN\s.*\bnode deploy\/bundle\.mjs\b/.test(l)), 'the image builds deploy/dist').toBe(true);
    expect(lines.some((l) => /^RUN\s.*\bnode deploy\/bin\/embedded-template\.mjs\b/.test(l)), 'the image builds the embedded templates').toBe(true);
    const cmd = JSON.parse(lines.filter((l) => /^CMD\s/i.test(l)).at(-1)!.replace(/^CMD\s+/i, '')) as string[];
    expect(cmd).toEqual(['gateway']);
  });

  it('is not fed node_modules, data or .git', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim());
    for (const p of ['node_modules', 'data', '.git']) expect(ignored).toContain(p);
  });
});

describe('deploy/k8s', () => {
  const files = readdirSync(K8S_DIR).filter((f) => /\.ya?ml$/.test(f)).sort();
  const byFile = new Map(files.map((f) => [f, parseYamlFile(join(K8S_DIR, f))]));
  const docs = [...byFile.values()].flat();
  const find = (kind: string, name: string) => docs.filter((d) => d.kind === kind && d.metadata?.name === name);
  const configMaps = docs.filter((d) => d.kind === 'ConfigMap');
  const secrets = docs.filter((d) => d.kind === 'Secret');
  const configData: Record<string, string> = Object.assign({}, ...configMaps.map((c) => c.data ?? {}));
  const secretData: Record<string, string> = Object.assign(
    {},
    ...secrets.map((s) => ({ ...(s.stringData ?? {}), ...Object.fromEntries(Object.entries(s.data ?? {}).map(([k, v]) => [k, Buffer.from(String(v), 'base64').toString()])) })),
  );

  it('lists every manifest in kustomization.yaml, and only existing ones', () => {
    const [kust] = byFile.get('kustomization.yaml') ?? [];
    expect(kust?.kind).toBe('Kustomization');
    expect(kust?.namespace, 'manifests stay namespace-agnostic').toBeUndefined();
    const listed = [...(kust?.resources ?? [])].sort();
    expect(listed).toEqual(files.filter((f) => f !== 'kustomization.yaml'));
    for (const d of docs.filter((x) => x.kind !== 'Kustomization')) expect(d.metadata?.namespace, `${d.kind}/${d.metadata?.name} has no namespace`).toBeUndefined();
  });

  it('has one file per process plus config.yaml', () => {
    for (const p of PROCESSES) expect(files).toContain(`${p}.yaml`);
    expect(files).toContain('config.yaml');
  });

  it('keeps secrets out of the ConfigMap and puts INTERNAL_TOKEN and DATABASE_URL in the Secret', () => {
    expect(configMaps.length).toBeGreaterThan(0);
    expect(secrets.length).toBeGreaterThan(0);
    for (const k of ['INTERNAL_TOKEN', 'DATABASE_URL']) {
      expect(configData[k], `${k} is not in a ConfigMap`).toBeUndefined();
      expect(secretData[k], `${k} in the Secret`).toBeDefined();
    }
    // The shipped values are placeholders and must say so.
    expect(secretData.INTERNAL_TOKEN).toMatch(/REPLACE_ME/);
    expect(secretData.DATABASE_URL).toMatch(/REPLACE_ME/);
  });

  it('has a configuration the app accepts', () => {
    const config = loadConfig({ ...configData, ...secretData });
    expect(config.natsUrl).toBeDefined();
    expect(config.redisUrl).toBeDefined();
  });

  it.each(PROCESSES)('runs %s as a Deployment in its own mode with probes on the right port', (p) => {
    const [dep, ...extra] = find('Deployment', p);
    expect(dep, `Deployment "${p}"`).toBeDefined();
    expect(extra).toEqual([]);
    const pod = dep!.spec.template;
    expect(dep!.spec.selector?.matchLabels, 'selector matches the pod labels').toBeDefined();
    for (const [k, v] of Object.entries(dep!.spec.selector.matchLabels)) expect(pod.metadata.labels?.[k]).toBe(v);
    const containers: Obj[] = pod.spec.containers;
    expect(containers).toHaveLength(1);
    const c = containers[0]!;
    expect(c.command, 'keep the image ENTRYPOINT; the mode goes in args').toBeUndefined();
    expect(c.args?.[0], `${p} args select the mode`).toBe(p);
    const portOf = (port: number | string) => (typeof port === 'number' ? port : c.ports?.find((x: Obj) => x.name === port)?.containerPort);
    expect(c.readinessProbe?.httpGet?.path).toBe('/ready');
    expect(portOf(c.readinessProbe?.httpGet?.port)).toBe(healthPort(p));
    expect(c.livenessProbe?.httpGet?.path).toBe('/health');
    expect(portOf(c.livenessProbe?.httpGet?.port)).toBe(healthPort(p));
    if (c.startupProbe) expect(portOf(c.startupProbe.httpGet?.port)).toBe(healthPort(p));
    for (const kind of ['requests', 'limits']) {
      expect(c.resources?.[kind]?.cpu, `${kind}.cpu`).toBeDefined();
      expect(c.resources?.[kind]?.memory, `${kind}.memory`).toBeDefined();
    }
    // The V8 heap cap (NODE_OPTIONS, from the ConfigMap unless the container overrides it) is half the container's memory limit.
    const nodeOptions: string = (c.env ?? []).find((e: Obj) => e.name === 'NODE_OPTIONS')?.value ?? configData.NODE_OPTIONS ?? '';
    const limitMi = Number(/^(\d+)Mi$/.exec(String(c.resources.limits.memory))?.[1]);
    const heapMb = Number(/--max-old-space-size=(\d+)/.exec(nodeOptions)?.[1]);
    expect(heapMb, `${p}: NODE_OPTIONS caps the heap at half of ${limitMi}Mi`).toBe(limitMi / 2);
    // And the young generation, as in docker-compose.yml (docs/operations.md, "Memory").
    expect(configData.NODE_OPTIONS).toMatch(/ --max-semi-space-size=8$/);
    expect(nodeOptions).toBe(composeEnv(composeServices()[p] ?? {}).NODE_OPTIONS);
    expect(nodeOptions).toMatch(new RegExp(` --max-semi-space-size=${YOUNG_GENERATION_MIB[p]}$`));
    const envFrom: Obj[] = c.envFrom ?? [];
    const cmRef = envFrom.find((e) => e.configMapRef)?.configMapRef?.name;
    const secretRef = envFrom.find((e) => e.secretRef)?.secretRef?.name;
    expect(configMaps.map((x) => x.metadata.name), 'envFrom ConfigMap exists').toContain(cmRef);
    expect(secrets.map((x) => x.metadata.name), 'envFrom Secret exists').toContain(secretRef);
    const env = Object.fromEntries((c.env ?? []).map((e: Obj) => [e.name, e.value]));
    if (p !== 'gateway') {
      const rpcPort = Number(env.SERVICE_PORT ?? DEFAULT_SERVICE_PORTS[p]);
      expect(rpcPort).toBe(DEFAULT_SERVICE_PORTS[p]);
      expect(c.ports?.map((x: Obj) => x.containerPort)).toContain(rpcPort);
    } else {
      expect(Number(env.PORT ?? configData.PORT ?? GATEWAY_PORT)).toBe(GATEWAY_PORT);
    }
    const security = { ...(pod.spec.securityContext ?? {}), ...(c.securityContext ?? {}) };
    expect(security.runAsNonRoot).toBe(true);
  });

  it.each(PROCESSES)('runs two replicas of %s and keeps one through voluntary disruptions (PodDisruptionBudget)', (p) => {
    const [dep] = find('Deployment', p);
    expect(dep!.spec.replicas).toBeGreaterThanOrEqual(2);
    const [pdb, ...extra] = find('PodDisruptionBudget', p);
    expect(pdb, `PodDisruptionBudget "${p}"`).toBeDefined();
    expect(extra).toEqual([]);
    expect(pdb!.apiVersion).toBe('policy/v1');
    expect(pdb!.spec.minAvailable).toBe(1);
    expect(pdb!.spec.minAvailable).toBeLessThan(dep!.spec.replicas);
    expect(pdb!.spec.selector.matchLabels).toEqual(dep!.spec.selector.matchLabels);
  });

  it.each(PROCESSES)('exposes %s through a Service the configured URL resolves to', (p) => {
    const [svc] = find('Service', p);
    expect(svc, `Service "${p}"`).toBeDefined();
    const [dep] = find('Deployment', p);
    for (const [k, v] of Object.entries(svc!.spec.selector ?? {})) expect(dep?.spec.template.metadata.labels?.[k], `Service selector ${k}`).toBe(v);
    expect(Object.keys(svc!.spec.selector ?? {}).length).toBeGreaterThan(0);
    const container: Obj = dep?.spec.template.spec.containers[0] ?? {};
    const targetOf = (sp: Obj) => {
      const t = sp.targetPort ?? sp.port;
      return typeof t === 'number' ? t : container.ports?.find((x: Obj) => x.name === t)?.containerPort;
    };
    if (p === 'gateway') {
      const sp = (svc!.spec.ports as Obj[]).find((x) => targetOf(x) === GATEWAY_PORT);
      expect(sp, 'gateway Service forwards to 8080').toBeDefined();
      return;
    }
    const configured = configData[urlVar(p)];
    expect(configured, `${urlVar(p)} in the ConfigMap`).toBeDefined();
    const url = new URL(configured!);
    expect(url.hostname.split('.')[0], `${urlVar(p)} resolves to the Service`).toBe(p);
    const sp = (svc!.spec.ports as Obj[]).find((x) => x.port === urlPort(url));
    expect(sp, `Service "${p}" has port ${urlPort(url)}`).toBeDefined();
    expect(targetOf(sp!), 'the Service port reaches the RPC port').toBe(DEFAULT_SERVICE_PORTS[p]);
  });
});
