// The in-toto statement a certification bundle signs: its subjects are the
// digests of every result file of the run, and its predicate the verdict and
// what produced it. Anyone holding the public key can check that the files
// and the verdict are the ones the harness wrote.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const PREDICATE_TYPE = 'urn:fleetproof:certification:v1';

export type Verdict = 'qualified' | 'non-conformant' | 'could-not-run';

export interface CertificationPredicate {
  verdict: Verdict;
  harness: { name: string; version: string; commit: string };
  contract: string;
  target: { url: string | null; implementation: { name: string; version: string } | null };
  profile: string;
  run_id: string;
  finished_at: string;
}

export interface Subject {
  name: string;
  digest: { sha256: string };
}

export interface Statement {
  _type: typeof STATEMENT_TYPE;
  subject: Subject[];
  predicateType: typeof PREDICATE_TYPE;
  predicate: CertificationPredicate;
}

export async function fileDigest(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

/** Subjects for files named relative to `dir`, in a stable order. */
export async function subjectsOf(dir: string, names: readonly string[]): Promise<Subject[]> {
  const sorted = [...names].sort();
  return Promise.all(sorted.map(async (name) => ({ name, digest: { sha256: await fileDigest(join(dir, name)) } })));
}

export function statementOf(subject: Subject[], predicate: CertificationPredicate): Statement {
  return { _type: STATEMENT_TYPE, subject, predicateType: PREDICATE_TYPE, predicate };
}
