// Which harness produced a result: package version and git commit (as the
// OCI suite records its own commit), so a published verdict can be
// reproduced with the same suite.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
  } catch {
    return null;
  }
}

export interface Provenance {
  name: string;
  version: string;
  commit: string;
  dirty: boolean | null;
  node: string;
}

let cached: Provenance | undefined;

export function harnessProvenance(): Provenance {
  if (cached) return cached;
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  const commit = git(['rev-parse', 'HEAD']);
  const status = commit === null ? null : git(['status', '--porcelain', '--untracked-files=no', '--', 'conformance', 'contract']);
  cached = { name: pkg.name, version: pkg.version, commit: commit ?? 'unknown', dirty: status === null ? null : status !== '', node: process.version };
  return cached;
}
