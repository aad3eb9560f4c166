// How store defects bend a write: answer that a refused write was applied
// though nothing was stored, or store it after all with the revision the
// rule demanded raised for it.
import type { ErrorCode } from '../../../contract/errors.ts';
import type { WriteResult } from '../../../contract/records.ts';
import { RegistryError } from '../../../contract/registry-error.ts';
import type { RegistryPort } from '../../../contract/target-port.ts';

export function refusedWith(err: unknown, ...codes: ErrorCode[]): boolean {
  return RegistryError.is(err) && codes.includes(err.code);
}

/** The write, or, when it is refused with one of `codes` and `when` holds, an `applied` answer with nothing stored. */
export async function claimApplied<R>(
  inner: RegistryPort,
  write: () => Promise<WriteResult<R>>,
  record: R,
  codes: readonly ErrorCode[],
  when: () => Promise<boolean> | boolean = () => true,
): Promise<WriteResult<R>> {
  try {
    return await write();
  } catch (err) {
    if (!refusedWith(err, ...codes) || !(await when())) throw err;
    return { outcome: 'applied', catalog_revision: await inner.catalogRevision(), record };
  }
}

/** The write, or, when it is refused as CONFLICT, the same write again with `raise` applied (a revision one above the stored). */
export async function raisedOnConflict<R>(write: (raise: boolean) => Promise<WriteResult<R>>): Promise<WriteResult<R>> {
  try {
    return await write(false);
  } catch (err) {
    if (!refusedWith(err, 'CONFLICT')) throw err;
    return write(true);
  }
}
