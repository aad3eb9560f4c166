// CPU time from Linux's /proc, for bench:pg: what the database server has
// spent (the postmaster, its live backends and the ones it reaped), what this
// process has spent, and the fields of a process's stat line. On a machine
// without /proc, `PROC` is false and the bench prints no CPU figures.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';

export const PROC = existsSync('/proc/self/stat');
/** Seconds per clock tick, the unit of /proc's CPU fields. */
export const TICK_S = PROC ? 1 / Number((await promisify(execFile)('getconf', ['CLK_TCK'])).stdout.trim() || 100) : 0;

/** The fields after a process's name in /proc/PID/stat (field 3 of stat(5) is index 0), or null once it exited. */
export function statFields(pid: number | string): string[] | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Everything the server has spent: the postmaster, its live children and the children it reaped. */
export function serverCpuS(postmaster: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    if (!f) continue;
    if (Number(entry) === postmaster) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    else if (Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks * TICK_S;
}

/** This process's CPU seconds, user and system. */
export function ownCpuS(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}
