import { readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc/{pid}/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

export interface ProcessUsage {
  /** User plus system CPU time since the process started, all threads. */
  readonly cpuSeconds: number;
  /** Resident memory now. */
  readonly rssMb: number;
  /** The highest resident memory since the process started (VmHWM). */
  readonly peakRssMb: number;
}

/** CPU time and memory of another process, from /proc (Linux). */
export async function processUsage(pid: number): Promise<ProcessUsage> {
  const [stat, status] = await Promise.all([readFile(`/proc/${pid}/stat`, 'utf8'), readFile(`/proc/${pid}/status`, 'utf8')]);
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const kilobytes = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { cpuSeconds: ticks / TICKS_PER_SECOND, rssMb: Math.round(kilobytes('VmRSS') / 1024), peakRssMb: Math.round(kilobytes('VmHWM') / 1024) };
}
