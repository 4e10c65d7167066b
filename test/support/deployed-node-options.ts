import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './processes';

let services: Record<string, { environment?: Record<string, unknown> }> | undefined;

/**
 * The `NODE_OPTIONS` a distributed process is deployed with (its service in docker-compose.yml; deploy/k8s says the
 * same, deploy/src/deploy-files.test.ts checks it): the benches run each process with its own heap caps.
 */
export function deployedNodeOptions(name: string): string {
  services ??= parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }).services;
  const value = services?.[name]?.environment?.NODE_OPTIONS;
  if (typeof value !== 'string') throw new Error(`docker-compose.yml gives ${name} no NODE_OPTIONS`);
  return value;
}
