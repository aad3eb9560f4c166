// The command line's development path to the deliberate defects
// (reference/defects/): `--defect NAME` builds one into the reference that
// `serve` or `properties` runs, for proving by hand what `npm run power`
// proves in bulk. Defects are refused unless FLEETPROOF_ALLOW_DEFECTS=1, and
// are loaded only when asked for, from a folder the package does not ship,
// so nothing else in the program reaches them.
import type { Defect } from '../reference/defects/defect.ts';
import type { RegistryStore, StoreOptions } from '../reference/store/registry-store.ts';
import { UsageError } from './args.ts';
import { ALLOW_DEFECTS } from './flags/shared.ts';
import { unknownName } from './suggest.ts';

/** The defect named by --defect, or null without the flag. */
export async function defectOf(name: string | undefined): Promise<Defect | null> {
  if (name === undefined) return null;
  if (process.env[ALLOW_DEFECTS] !== '1')
    throw new UsageError(`--defect builds a deliberately broken registry and needs ${ALLOW_DEFECTS}=1 in the environment`);
  let catalogue: typeof import('../reference/defects/catalogue.ts');
  try {
    catalogue = await import('../reference/defects/catalogue.ts');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND')
      throw new UsageError('--defect: this installation ships no defects');
    throw err;
  }
  try {
    return await catalogue.defectNamed(name);
  } catch (err) {
    if (err instanceof catalogue.UnknownDefect) throw new UsageError(unknownName('defect', name, err.known));
    throw err;
  }
}

/** How a property target opens its stores with the defect built in. */
export async function defectiveOpeners(defect: Defect) {
  const { defectiveMemoryStore, defectivePostgresOpener } = await import('../reference/defects/defective.ts');
  return {
    memory: (options: StoreOptions): RegistryStore => defectiveMemoryStore(defect, options),
    postgres: () => defectivePostgresOpener(defect),
  };
}
