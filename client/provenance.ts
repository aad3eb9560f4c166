// Which harness produced a result: package name and version, git commit and
// whether the tree differs from it (as the OCI suite records its own
// commit), so a published verdict can be reproduced with the same code. The
// one place package.json is read.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface PackageInfo {
  name: string;
  version: string;
}

export interface Provenance extends PackageInfo {
  /** `unknown` outside a git checkout. */
  commit: string;
  /** Whether tracked files differ from the commit; null when unknown. */
  dirty: boolean | null;
  node: string;
}

let pkg: PackageInfo | undefined;

export function packageInfo(): PackageInfo {
  if (pkg) return pkg;
  const { name, version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as PackageInfo;
  pkg = { name, version };
  return pkg;
}

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
  } catch {
    return null;
  }
}

const cached = new Map<string, Provenance>();

/** `dirtyUnder`: the folders whose changes make a result "modified"; the whole tree when empty. */
export function harnessProvenance(dirtyUnder: readonly string[] = []): Provenance {
  const cacheKey = dirtyUnder.join('\u001f');
  const known = cached.get(cacheKey);
  if (known) return known;
  const commit = git(['rev-parse', 'HEAD']);
  const status = commit === null ? null : git(['status', '--porcelain', '--untracked-files=no', '--', ...dirtyUnder]);
  const provenance = {
    ...packageInfo(),
    commit: commit ?? 'unknown',
    dirty: status === null ? null : status !== '',
    node: process.version,
  };
  cached.set(cacheKey, provenance);
  return provenance;
}
