import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

/** CPU seconds (user + system) of a `/proc/.../stat` file (clock ticks of 10 ms); NaN once its process or thread is gone. */
function statCpuSeconds(statFile: string): number {
  try {
    const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** CPU seconds (user + system) a process has used so far; NaN once it is gone. */
export function cpuSeconds(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/** CPU seconds of each thread of a process so far, by thread id, with the thread's name (threads that ended are left out). */
export function threadCpuSeconds(pid: number): Map<number, { name: string; cpu: number }> {
  const out = new Map<number, { name: string; cpu: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const cpu = statCpuSeconds(`/proc/${pid}/task/${tid}/stat`);
    let name: string;
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (!Number.isNaN(cpu)) out.set(Number(tid), { name, cpu });
  }
  return out;
}

/** CPU seconds of the PostgreSQL backends serving the client's database, by pid. */
export async function backendCpu(sql: pg.Client): Promise<Map<number, number>> {
  return new Map([...(await backendCpuByApp(sql))].map(([pid, b]) => [pid, b.cpu]));
}

/** CPU seconds and `application_name` (`vat-<schema>` for a service's pool) of the backends serving the client's database, by pid. */
export async function backendCpuByApp(sql: pg.Client): Promise<Map<number, { app: string; cpu: number }>> {
  const { rows } = await sql.query<{ pid: number; app: string }>('select pid, application_name as app from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
  return new Map(rows.map((r) => [r.pid, { app: r.app || 'other', cpu: cpuSeconds(r.pid) }]));
}

/** A memory field of a process's `/proc/<pid>/status` (`VmRSS`: now, `VmHWM`: the peak resident set), in MB; NaN without it. */
export function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}
