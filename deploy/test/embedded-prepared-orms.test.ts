import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, SERVICE_NAMES } from '@vat/platform/config';
import { embeddedUrlFor } from '@vat/platform/embedded-pg-runtime';
import { build } from '../src/build';

type Line = { msg: string; service?: string; prepared?: boolean; builtWhileTheDatabaseOpened?: boolean };

/**
 * `npm start` makes the services' ORMs while the embedded database opens on its own thread (deploy/src/build.ts):
 * for the URL the database will be served at, taken by each service when it starts.
 */
describe('npm start: the services ORMs are made and the gateway built while the embedded database opens', () => {
  const root = mkdtempSync(join(tmpdir(), 'vat-orms-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const start = (dataDir: string, lines: Line[]) =>
    build('all', loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' }), pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) }));

  it('every service takes the ORM made meanwhile, for the URL the database is then served at', async () => {
    const dataDir = join(root, 'a');
    const lines: Line[] = [];
    const built = await start(dataDir, lines);
    try {
      expect(built.databaseUrl).toBe(embeddedUrlFor(dataDir));
      const orms = lines.filter((l) => l.msg === 'ORM initialised');
      expect(orms.map((l) => [l.service, l.prepared])).toEqual(SERVICE_NAMES.map((name) => [name, true]));
      // The gateway was built meanwhile too, then started (its migrations checked, its consumer subscribed) after the services.
      const gateway = lines.filter((l) => l.msg === 'gateway started');
      expect(gateway.map((l) => l.builtWhileTheDatabaseOpened)).toEqual([true]);
      expect(lines.findIndex((l) => l.msg === 'gateway started')).toBeGreaterThan(lines.findLastIndex((l) => l.msg === 'ORM initialised'));
      const ready = await built.gateway!.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode, ready.body).toBe(200);
      // It answers from its own schema: an unknown key is refused by the key store, not by a failure.
      const refused = await built.gateway!.app.inject({ method: 'GET', url: '/v1/sources', headers: { 'x-api-key': `vat_0123456789abcdef_${'A'.repeat(43)}` } });
      expect(refused.statusCode, refused.body).toBe(401);
      expect(refused.json().error).toBe('invalid_api_key');
    } finally {
      await built.stop();
    }
  }, 60_000);

  it('a database that does not open fails the start with its reason', async () => {
    const dataDir = join(root, 'b');
    mkdirSync(dataDir);
    // where the cluster's directory belongs, a file
    writeFileSync(join(dataDir, 'pg'), 'not a database');
    const lines: Line[] = [];
    await expect(start(dataDir, lines)).rejects.toThrow();
    expect(lines.filter((l) => l.msg === 'ORM initialised' || l.msg === 'gateway started')).toEqual([]);
  }, 60_000);
});
