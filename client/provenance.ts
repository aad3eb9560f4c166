// Which harness produced a result: package name and version, git commit and
// whether the tree differs from it (as the OCI suite records its own
// commit), so a published verdict can be reproduced with the same code; the
// contract revision it judged by; and a digest of the cases it ran, so two
// runs can be told to have run the same ones. The one place package.json is
// read. An installed package is no checkout (or sits inside someone else's):
// its compiled tree's package.json names the commit it was built from
// (scripts/build.js).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { digestOf } from '../contract/digest.ts';
import { openApiDocument } from '../contract/openapi.ts';

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

interface PackageFile extends PackageInfo {
  commit?: string;
  dirty?: boolean | null;
}

let pkg: PackageFile | undefined;

function packageFile(): PackageFile {
  pkg ??= JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as PackageFile;
  return pkg;
}

export function packageInfo(): PackageInfo {
  const { name, version } = packageFile();
  return { name, version };
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
  const built = packageFile();
  let commit: string | null, dirty: boolean | null;
  if (built.commit !== undefined) ({ commit, dirty = null } = built);
  else {
    commit = git(['rev-parse', 'HEAD']);
    const status = commit === null ? null : git(['status', '--porcelain', '--untracked-files=no', '--', ...dirtyUnder]);
    dirty = status === null ? null : status !== '';
  }
  const provenance = { ...packageInfo(), commit: commit ?? 'unknown', dirty, node: process.version };
  cached.set(cacheKey, provenance);
  return provenance;
}

/** The contract's revision, `info.version` of openapi.yaml (fleetproof-registry/v1.3): a verdict names the rules it was reached under. */
export function contractRevision(): string {
  return openApiDocument().info.version;
}

/** What a run ran, as one digest: two runs with the same digest ran the same cases (suites, phases and thresholds). */
export interface CaseSet {
  /** `sha256:` over the canonical JSON of the sorted, distinct items. */
  digest: string;
  count: number;
}

export function caseSetOf(items: readonly string[]): CaseSet {
  const distinct = [...new Set(items)].sort();
  return { digest: digestOf(distinct), count: distinct.length };
}
