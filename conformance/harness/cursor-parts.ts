// Where a client sees the parts of an opaque cursor (spec.md decision 36):
// the last id of the page that issued it, or that page's catalog revision,
// appearing in the cursor exactly once (the revision outside the id part),
// as text or in its base64url decoding. Cases cut a part out to build a
// malformed cursor from a real one.
import type { CapabilityPage } from '../../contract/records.ts';
import type { RegistryClient } from './client.ts';
import type { CaseContext } from './context.ts';
import { expectOk, expectTrue } from './expect.ts';
import { spreadCatalog } from './sizes.ts';

/** A real cursor to mutate: the first page, one definition long, of a fresh tenant's catalog of `definitions`. */
export interface IssuedCursor {
  catalog: RegistryClient;
  first: CapabilityPage;
  cursor: string;
  lastId: string;
}

export async function issuedCursor(ctx: CaseContext, definitions: number): Promise<IssuedCursor> {
  const { tenant } = await spreadCatalog(
    ctx,
    Array.from({ length: definitions }, () => ctx.fx.capability()),
  );
  const catalog = ctx.catalogFor(tenant);
  const first = expectOk(await catalog.call('queryCatalog', { query: { limit: 1 } }));
  const lastId = first.capabilities.at(-1)?.capability.id;
  expectTrue(first.next_cursor !== null && lastId !== undefined, `the first of ${definitions} pages carries a definition and a cursor`);
  return { catalog, first, cursor: first.next_cursor!, lastId: lastId! };
}

/** Where `part` occurs in `text`, outside the span [from, to). */
function occurrences(text: string, part: string, outside: [number, number] = [0, 0]): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1))
    if (at + part.length <= outside[0] || at >= outside[1]) found.push(at);
  return found;
}

/** `text` without its one occurrence of `part` (outside `id`'s one occurrence, when given), or null. */
function cutOnce(text: string, part: string, id?: string): string | null {
  let outside: [number, number] = [0, 0];
  if (id !== undefined) {
    const ids = occurrences(text, id);
    if (ids.length !== 1) return null;
    outside = [ids[0]!, ids[0]! + id.length];
  }
  const at = occurrences(text, part, outside);
  return at.length === 1 ? text.slice(0, at[0]) + text.slice(at[0]! + part.length) : null;
}

/** The cursor's base64url decoding, when it is canonical base64url of UTF-8 text. */
function base64urlText(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return Buffer.from(text, 'utf8').toString('base64url') === cursor.replace(/=+$/, '') ? text : null;
}

/**
 * The cursor with `part` cut out and encoded again as it came, or null when
 * the cursor does not show `part` exactly once, neither as text nor in its
 * base64url decoding. With `id`, the last id the cursor also shows exactly
 * once, `part` is looked for outside it (a revision's digits may recur in
 * an id).
 */
export function withPartCut(cursor: string, part: string, id?: string): string | null {
  const plain = cutOnce(cursor, part, id);
  if (plain !== null) return plain;
  const decoded = base64urlText(cursor);
  const cut = decoded === null ? null : cutOnce(decoded, part, id);
  return cut === null ? null : Buffer.from(cut, 'utf8').toString('base64url');
}
