// Reads the clauses of spec.md: each starts with `<a id="ID"></a>` on its own
// line followed by `**[ID]** KEYWORD — text`. The spec is the single source;
// nothing here is generated or copied from it.
import { readFileSync } from 'node:fs';

export type Keyword = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY';
export type Severity = 'required' | 'recommended' | 'optional';

export interface Clause {
  readonly id: string;
  readonly keyword: Keyword;
  readonly severity: Severity;
  readonly section: string;
  readonly text: string;
}

export const SPEC_PATH = new URL('./spec.md', import.meta.url);

const CLAUSE_LINE = /^\*\*\[([a-z0-9-]+)\]\*\* (MUST NOT|MUST|SHOULD NOT|SHOULD|MAY) — (.+)$/;
const ANCHOR_LINE = /^<a id="([a-z0-9-]+)"><\/a>$/;

export function severityOf(keyword: Keyword): Severity {
  if (keyword.startsWith('MUST')) return 'required';
  if (keyword.startsWith('SHOULD')) return 'recommended';
  return 'optional';
}

export function parseClauses(markdown: string): Clause[] {
  const lines = markdown.split('\n');
  const clauses: Clause[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('## ')) section = line.slice(3).trim();
    const anchor = ANCHOR_LINE.exec(line);
    if (!anchor) continue;
    const clause = CLAUSE_LINE.exec(lines[i + 1] ?? '');
    if (!clause || clause[1] !== anchor[1]) {
      throw new Error(`spec.md line ${i + 1}: anchor ${anchor[1]} is not followed by its clause line`);
    }
    const keyword = clause[2] as Keyword;
    clauses.push({ id: anchor[1]!, keyword, severity: severityOf(keyword), section, text: clause[3]! });
  }
  const seen = new Set<string>();
  for (const c of clauses) {
    if (seen.has(c.id)) throw new Error(`spec.md: clause ${c.id} is defined twice`);
    seen.add(c.id);
  }
  return clauses;
}

let cached: ReadonlyMap<string, Clause> | undefined;

/** Every clause of spec.md by id, parsed once per process. */
export function clauses(): ReadonlyMap<string, Clause> {
  cached ??= new Map(parseClauses(readFileSync(SPEC_PATH, 'utf8')).map((c) => [c.id, c]));
  return cached;
}
