// Every deliberate defect, found by scanning store/, http/ and race/ for
// `NAME.defect.ts` files, so adding a defect is adding its file. A file whose
// default export is not a defect named after it, or whose clause is not a
// MUST clause of spec.md, is an error here rather than a defect that
// silently never runs.
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { clauses } from '../../contract/clauses.ts';
import { isDefect, type Defect } from './defect.ts';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const FOLDERS = ['store', 'http', 'race'] as const;
/** In a compiled tree this module is JavaScript, and so is each defect beside its source. */
const extension = import.meta.url.endsWith('.js') ? '.js' : '.ts';
const SUFFIX = `.defect${extension}`;

function defectFiles(): string[] {
  return FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder))
      .filter((f) => f.endsWith(SUFFIX))
      .map((f) => join(ROOT, folder, f)),
  ).sort();
}

async function load(path: string): Promise<Defect> {
  const exported = ((await import(pathToFileURL(path).href)) as { default?: unknown }).default;
  const name = basename(path, SUFFIX);
  if (!isDefect(exported)) throw new Error(`${path}: the default export is not a defect`);
  if (exported.name !== name) throw new Error(`${path}: the defect is named ${exported.name}, not after its file`);
  const clause = clauses().get(exported.clause);
  if (!clause?.keyword.startsWith('MUST')) throw new Error(`${path}: [${exported.clause}] is not a MUST clause of spec.md`);
  return exported;
}

let loaded: Promise<readonly Defect[]> | undefined;

/** Every defect, by name. */
export function loadDefects(): Promise<readonly Defect[]> {
  loaded ??= Promise.all(defectFiles().map(load)).then((all) => Object.freeze(all.sort((a, b) => (a.name < b.name ? -1 : 1))));
  return loaded;
}

export class UnknownDefect extends Error {
  constructor(
    readonly asked: string,
    readonly known: readonly string[],
  ) {
    super(`no defect is named ${asked}`);
  }
}

export async function defectNamed(name: string): Promise<Defect> {
  const all = await loadDefects();
  const found = all.find((d) => d.name === name);
  if (!found)
    throw new UnknownDefect(
      name,
      all.map((d) => d.name),
    );
  return found;
}
