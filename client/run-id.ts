// The id of one run, shared by conformance, the load runner and certify: every
// id a run creates embeds it, so runs never collide on a shared server and a
// vendor can tell from any record which run made it. Letters and digits only,
// so it fits inside every id pattern of openapi.yaml and the load dataset's
// names; it starts with the UTC time, so runs sort by start.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

/** `fpYYYYMMDDtHHMMSS` + 8 hex digits, e.g. `fp20261130t123456a1b2c3d4`. */
export const RUN_ID_PATTERN = /^fp[0-9]{8}t[0-9]{6}[0-9a-f]{8}$/;

export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15).toLowerCase();
  return `fp${stamp}${randomBytes(4).toString('hex')}`;
}

/** Where a run's reports go unless told: reports/runs/<name> under the working directory, wherever the harness is installed. */
export function defaultRunDir(name: string): string {
  return resolve('reports', 'runs', name);
}
