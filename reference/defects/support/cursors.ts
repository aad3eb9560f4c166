// The reference's cursors, as a defect that tampers with them reads them:
// `revision:lastId`, plain or base64url (the variants' two formats,
// domain/catalog.ts).
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
