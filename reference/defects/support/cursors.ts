// The reference's cursors, as a defect that tampers with them reads them:
// `revision:lastId`, plain or base64url (the variants' two formats,
// domain/catalog.ts).
import { RegistryError } from '../../../contract/registry-error.ts';
import type { RegistryPort } from '../../../contract/target-port.ts';
import { encodeCursor } from '../../domain/catalog.ts';
import { REFERENCE_CHOICES } from '../../domain/choices.ts';

interface Cursor {
  revision: number;
  lastId: string;
  encoded: boolean;
}

export function parseCursor(cursor: string): Cursor | null {
  const plain = /^[0-9]+:/.test(cursor) ? cursor : Buffer.from(cursor, 'base64url').toString('utf8');
  const colon = plain.indexOf(':');
  if (colon <= 0 || !/^[0-9]+$/.test(plain.slice(0, colon))) return null;
  return { revision: Number(plain.slice(0, colon)), lastId: plain.slice(colon + 1), encoded: plain !== cursor };
}

/** The same cursor, issued at another revision. */
export function atRevision(cursor: string, revision: number): string {
  const c = parseCursor(cursor);
  return c ? cursorAt(revision, c.lastId, cursor) : cursor;
}

/** A cursor at `lastId` in the format of `like`, a cursor this registry issued (plain when there is none). */
export function cursorAt(revision: number, lastId: string, like: string | null): string {
  const encoded = like !== null && parseCursor(like)?.encoded === true;
  return encodeCursor(revision, lastId, { ...REFERENCE_CHOICES, cursors: encoded ? 'base64url' : 'revision-and-id' });
}

type CatalogQuery = Parameters<RegistryPort['queryCatalog']>[0];

/**
 * `inner`'s catalog read, except that where the registry refuses a query's
 * cursor as malformed (INVALID_REQUEST) and `instead` gives another query for
 * it, that query is answered: the shape of every defect that reads a cursor
 * it should refuse as something else.
 */
export function cursorRefusalAnswered(
  inner: Pick<RegistryPort, 'queryCatalog'>,
  instead: (cursor: string, query: CatalogQuery) => CatalogQuery | null | Promise<CatalogQuery | null>,
): Pick<RegistryPort, 'queryCatalog'> {
  return {
    async queryCatalog(query, ctx) {
      try {
        return await inner.queryCatalog(query, ctx);
      } catch (err) {
        if (!RegistryError.is(err) || err.code !== 'INVALID_REQUEST' || query.cursor === undefined) throw err;
        const other = await instead(query.cursor, query);
        if (other === null) throw err;
        return inner.queryCatalog(other, ctx);
      }
    },
  };
}

/** The query without its cursor: the walk from its start. */
export function fromTheStart(query: CatalogQuery): CatalogQuery {
  const { cursor: _dropped, ...fresh } = query;
  return fresh;
}
