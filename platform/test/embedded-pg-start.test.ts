import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runningEmbeddedUrl, startEmbeddedPostgres, type EmbeddedPostgres } from '../src/embedded-pg';
import { EMBEDDED_SHARED_BUFFERS } from '../src/embedded-pg-open';
import { tcpListenPorts } from '../../test/support/tcp-listeners';

const mode = (path: string) => statSync(path).mode & 0o777;

/** Every path under `dir` (itself included) that group or others may access, with its mode. */
function loosePaths(dir: string): string[] {
  const loose: string[] = [];
  const walk = (path: string) => {
    const st = lstatSync(path);
    if ((st.mode & 0o077) !== 0) loose.push(`${path} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return loose;
}

async function write(url: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(sql);
  await c.end();
}

describe('npm start\'s embedded database is private to this user', () => {
  const root = mkdtempSync(join(tmpdir(), 'vat-pg-start-'));
  const dataDir = join(root, 'data');
  let running: EmbeddedPostgres | undefined;

  afterAll(async () => {
    await running?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('DATA_DIR is 0700 with nothing group/other accessible, the socket is inside it, runtime.json is 0600, no TCP port', async () => {
    const portsBefore = tcpListenPorts();
    running = await startEmbeddedPostgres(dataDir, { advertise: true });
    // Relations created while it runs are private too (the umask), not only those of the initial cluster.
    await write(running.url, 'create table private_check (id int primary key); insert into private_check values (1)');
    expect(mode(dataDir)).toBe(0o700);
    expect(loosePaths(dataDir)).toEqual([]);
    expect(running.socketDir).toBe(join(dataDir, 'run'));
    expect(lstatSync(join(dataDir, 'run', '.s.PGSQL.5432')).isSocket()).toBe(true);
    const runtimeFile = join(dataDir, 'runtime.json');
    expect(mode(runtimeFile)).toBe(0o600);
    // The socket directory only: no TCP host:port.
    expect(JSON.parse(readFileSync(runtimeFile, 'utf8'))).toEqual({ pid: process.pid, socketDir: join(dataDir, 'run') });
    expect(decodeURIComponent(new URL(running.url).hostname)).toBe(join(dataDir, 'run'));
    expect(tcpListenPorts()).toEqual(portsBefore);
    expect(await runningEmbeddedUrl(dataDir)).toBe(running.url);
  }, 120_000);

  it('runs with a 32 MB buffer pool whatever the cluster\'s postgresql.conf says (initdb wrote 128MB)', async () => {
    expect(readFileSync(join(dataDir, 'pg', 'postgresql.conf'), 'utf8')).toMatch(/^shared_buffers = 128MB/m);
    const c = new pg.Client({ connectionString: running!.url });
    await c.connect();
    try {
      const rows = (await c.query("select setting, unit, source from pg_settings where name = 'shared_buffers'")).rows;
      // 4096 pages of 8 kB = 32 MB, set on the command line (PGlite's start parameters), not by the file.
      expect(rows).toEqual([{ setting: '4096', unit: '8kB', source: 'command line' }]);
      expect(EMBEDDED_SHARED_BUFFERS).toBe('32MB');
    } finally {
      await c.end();
    }
  }, 60_000);

  it('a second database on the same DATA_DIR is refused while the first runs', async () => {
    await expect(startEmbeddedPostgres(dataDir)).rejects.toThrow(/DATA_DIR .* is in use by another running process/);
    // The refused attempt left the running one intact.
    await write(running!.url, 'insert into private_check values (2)');
  });

  it('stopping removes runtime.json and the socket; a runtime.json left by a killed process is not trusted', async () => {
    await running!.stop();
    running = undefined;
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
    expect(existsSync(join(dataDir, 'run', '.s.PGSQL.5432'))).toBe(false);
    writeFileSync(join(dataDir, 'runtime.json'), JSON.stringify({ pid: process.pid, socketDir: join(dataDir, 'run') }));
    expect(await runningEmbeddedUrl(dataDir)).toBeUndefined();
  });

  it('a data directory written by an older version (0755, files 0666, TCP runtime.json) is made private on start', async () => {
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'pg'), 0o755);
    chmodSync(join(dataDir, 'pg', 'PG_VERSION'), 0o666);
    mkdirSync(join(dataDir, 'pg', 'old-dir'), { mode: 0o777 });
    chmodSync(join(dataDir, 'pg', 'old-dir'), 0o777);
    // Left by an older npm start that has since exited.
    const exitedPid = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(join(dataDir, 'runtime.json'), JSON.stringify({ pid: exitedPid, url: 'postgresql://postgres@127.0.0.1:5555/postgres' }), { mode: 0o644 });
    chmodSync(join(dataDir, 'runtime.json'), 0o644);
    expect(loosePaths(dataDir).length).toBeGreaterThan(3);
    running = await startEmbeddedPostgres(dataDir, { advertise: true });
    expect(loosePaths(dataDir)).toEqual([]);
    expect(JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'))).toEqual({ pid: process.pid, socketDir: join(dataDir, 'run') });
    const c = new pg.Client({ connectionString: running.url });
    await c.connect();
    expect((await c.query('select id from private_check order by id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
    await c.end();
  }, 120_000);

  it('a DATA_DIR served by a running older version (TCP runtime.json, live pid) is not opened a second time', async () => {
    await running!.stop();
    running = undefined;
    // The parent process stands in for the older npm start: alive, and not this process.
    writeFileSync(join(dataDir, 'runtime.json'), JSON.stringify({ pid: process.ppid, url: 'postgresql://postgres@127.0.0.1:5555/postgres' }));
    await expect(startEmbeddedPostgres(dataDir)).rejects.toThrow(/in use by a running npm start of an older version \(pid \d+\); stop it first/);
    expect(existsSync(join(dataDir, 'run', '.s.PGSQL.5432'))).toBe(false);
    rmSync(join(dataDir, 'runtime.json'));
  });

  it('a DATA_DIR too long for a Unix socket path fails with a clear error before anything is created', async () => {
    const deep = join(root, 'x'.repeat(90));
    await expect(startEmbeddedPostgres(deep)).rejects.toThrow(/too long for the embedded database's Unix socket .* set a shorter DATA_DIR/);
    expect(existsSync(deep)).toBe(false);
  });
});
