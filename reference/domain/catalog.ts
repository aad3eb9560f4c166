// Catalog reads (spec.md §7–§8): filters, cursors and page assembly over the
// visible definitions, which each store finds its own way.
import type { CapabilityDefinition, CapabilityPage, CatalogQuery, RegistryLimits } from '../../contract/records.ts';
import { defaultPageLimit } from '../../contract/records.ts';
import { invalid, staleCursor } from '../../contract/registry-error.ts';
import { violationOf } from '../../contract/schemas.ts';
import { REFERENCE_CHOICES, type ReferenceChoices } from './choices.ts';
import { assertShape } from './validation.ts';

/** The catalog's share of the choices a registry makes. */
export type CatalogChoices = Pick<ReferenceChoices, 'cursors' | 'pageFillPercent' | 'staleCursorFirst' | 'trailingCursor'>;

export interface VisibleDefinition {
  id: string;
  definition: CapabilityDefinition;
  /** Canonical JSON byte length of the definition. */
  size: number;
}

export interface NormalisedQuery {
  capabilityId: string | undefined;
  needle: string | undefined;
  profile: string | undefined;
  limit: number;
  /** The last id of the previous page, when continuing. */
  after: string | undefined;
}

const ASCII_UPPER = /[A-Z]/g;
export function asciiLower(s: string): string {
  return s.replace(ASCII_UPPER, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

export function encodeCursor(revision: number, lastId: string, choices: CatalogChoices = REFERENCE_CHOICES): string {
  const plain = `${revision}:${lastId}`;
  return choices.cursors === 'base64url' ? Buffer.from(plain, 'utf8').toString('base64url') : plain;
}

/** The `revision:id` text of a cursor this registry issued, or null when it cannot be one. */
function cursorText(cursor: string, choices: CatalogChoices): string | null {
  if (choices.cursors === 'revision-and-id') return cursor;
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return Buffer.from(text, 'utf8').toString('base64url') === cursor ? text : null;
}

/**
 * Validates a query against the current revision ([page-limit],
 * [page-stale-cursor], [page-invalid-cursor]). The revision part is checked
 * before the id part, so a stale cursor is STALE_CURSOR whatever follows it.
 */
export function normaliseQuery(
  query: CatalogQuery,
  revision: number,
  limits: RegistryLimits,
  choices: CatalogChoices = REFERENCE_CHOICES,
): NormalisedQuery {
  assertShape<CatalogQuery>('CatalogQuery', query);
  const limit = query.limit ?? defaultPageLimit(limits);
  const checkLimit = () => {
    if (limit > limits.max_page_size) throw invalid(`limit must be between 1 and ${limits.max_page_size}`);
  };
  if (!choices.staleCursorFirst) checkLimit();
  let after: string | undefined;
  if (query.cursor !== undefined) {
    const text = cursorText(query.cursor, choices);
    const colon = text === null ? -1 : text.indexOf(':');
    if (text === null || colon <= 0) throw invalid('malformed cursor');
    const revPart = text.slice(0, colon);
    if (!/^[0-9]{1,16}$/.test(revPart)) throw invalid('malformed cursor');
    // Stale before anything else the request holds ([page-stale-cursor]).
    if (Number(revPart) !== revision) throw staleCursor();
    after = text.slice(colon + 1);
    // The id part is a capability id this registry could have issued.
    if (violationOf('CapabilityId', after) !== null) throw invalid('malformed cursor');
  }
  checkLimit();
  const trimmed = query.text?.trim();
  return {
    capabilityId: query.capability_id,
    needle: trimmed ? asciiLower(trimmed) : undefined,
    profile: query.profile,
    limit,
    after,
  };
}

/** [catalog-filters] for the text needle (already trimmed and lowered). */
export function textMatches(definition: CapabilityDefinition, needle: string): boolean {
  const c = definition.capability;
  return asciiLower(`${c.id} ${c.name} ${c.description ?? ''}`).includes(needle);
}

/**
 * Builds one page from every match at `revision`, sorted by id. `total` counts
 * all matches; the page starts after the cursor and stops at the count or the
 * byte bound, whichever comes first ([page-bytes], [page-revision]).
 */
export function assemblePage(
  matches: readonly VisibleDefinition[],
  q: NormalisedQuery,
  revision: number,
  limits: RegistryLimits,
  choices: CatalogChoices = REFERENCE_CHOICES,
): CapabilityPage {
  let start = 0;
  if (q.after !== undefined) {
    let lo = 0;
    let hi = matches.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (matches[mid]!.id <= q.after) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const page: CapabilityDefinition[] = [];
  // [page-fill]: a registry may end a page before its limit, never before its first item.
  const most = Math.max(1, Math.floor((q.limit * choices.pageFillPercent) / 100));
  let bytes = 0;
  let i = start;
  for (; i < matches.length && page.length < most; i++) {
    const m = matches[i]!;
    if (bytes + m.size > limits.max_page_bytes) break;
    bytes += m.size;
    page.push(m.definition);
  }
  const more = i < matches.length;
  return {
    catalog_revision: revision,
    capabilities: page,
    // [page-fill]: an empty page never carries a cursor, so a walk ends whatever the choice.
    next_cursor:
      (more || choices.trailingCursor) && page.length > 0 ? encodeCursor(revision, page[page.length - 1]!.capability.id, choices) : null,
    total: matches.length,
  };
}
