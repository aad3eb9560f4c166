// Catalog reads on PostgreSQL (spec.md §7–§8). A read takes the shared
// publication lock, reads the revision, and pages over the view of its
// context at that revision. A view lists the visible capabilities with their
// sizes and profiles; it is built from indexed rows on first use at a
// revision and kept until the revision moves, as the memory store keeps its
// views. Definitions never change once stored, so they are cached for good.
// A read whose view and definitions are all cached needs only the current
// revision: one statement, no transaction. The view was built at that
// revision under the lock, and every catalog write group moves the revision
// when it commits, so the answer is the one the locked read would give.
import type pg from 'pg';
import type {
  CapabilityDefinition,
  CapabilityPage,
  CatalogContext,
  CatalogQuery,
  RegistryLimits,
  ResolvedCapability,
} from '../../../contract/records.ts';
import { assemblePage, normaliseQuery, textMatches, type CatalogChoices, type VisibleDefinition } from '../../domain/catalog.ts';
import { compareBytes } from '../../domain/ordering.ts';
import { assertShape } from '../../domain/validation.ts';
import { read, run, transaction, type Db } from './database.ts';
import { sql } from './sql.ts';

interface ViewEntry {
  id: string;
  size: number;
  profiles: Set<string>;
}

interface View {
  revision: number;
  entries: ViewEntry[];
  byId: Map<string, ViewEntry>;
}

const INTERNAL_VIEW = '\u0000internal';
/** Whose view a context reads: tenant context wins over unbound ([catalog-tenant-precedence]); null sees nothing. */
const viewKey = (ctx: CatalogContext): string | null => ctx.tenant_id ?? (ctx.allow_unbound ? INTERNAL_VIEW : null);
const emptyView = (revision: number): View => ({ revision, entries: [], byId: new Map() });
/** Definitions by id, from the cache alone (undefined unless every one is there) or read from the database. */
type DefinitionsOf = (ids: readonly string[]) => Promise<Map<string, CapabilityDefinition> | undefined>;
const MAX_VIEWS = 512;
const MAX_CACHED_DEFINITION_BYTES = 64 * 1024 * 1024;

export class CatalogReader {
  private readonly views = new Map<string, View>();
  private readonly definitions = new Map<string, { definition: CapabilityDefinition; size: number }>();
  private cachedBytes = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly limits: RegistryLimits,
    private readonly choices: CatalogChoices,
  ) {}

  async query(query: CatalogQuery, ctx: CatalogContext): Promise<CapabilityPage> {
    const cached = await this.cachedAtCurrentRevision(ctx);
    const fast = cached && (await this.page(query, cached.view, cached.revision, async (ids) => this.cachedDefinitions(ids)));
    if (fast) return fast;
    return this.atOneRevision(
      async (db, revision) =>
        (await this.page(query, await this.view(db, ctx, revision), revision, (ids) => this.loadDefinitions(db, ids)))!,
    );
  }

  async get(capabilityId: string, ctx: CatalogContext): Promise<ResolvedCapability | null> {
    assertShape<string>('CapabilityId', capabilityId);
    const cached = await this.cachedAtCurrentRevision(ctx);
    const fast = cached && (await this.capability(capabilityId, cached.view, cached.revision, async (ids) => this.cachedDefinitions(ids)));
    if (fast !== undefined) return fast;
    return this.atOneRevision(
      async (db, revision) =>
        // The database has every definition a view holds: never undefined here.
        (await this.capability(capabilityId, await this.view(db, ctx, revision), revision, (ids) =>
          this.loadDefinitions(db, ids),
        )) as ResolvedCapability | null,
    );
  }

  /** One capability of `view`, or null when the view holds none by that id; undefined when `definitionsOf` has not its definition. */
  private async capability(
    capabilityId: string,
    view: View,
    revision: number,
    definitionsOf: DefinitionsOf,
  ): Promise<ResolvedCapability | null | undefined> {
    if (!view.byId.has(capabilityId)) return null;
    const definition = (await definitionsOf([capabilityId]))?.get(capabilityId);
    return definition && { definition, catalog_revision: revision };
  }

  /**
   * One page of `view`: planned on ids and sizes, then only the definitions it
   * holds fetched. Undefined when `definitionsOf` has not every one it is asked for.
   */
  private async page(query: CatalogQuery, view: View, revision: number, definitionsOf: DefinitionsOf): Promise<CapabilityPage | undefined> {
    const q = normaliseQuery(query, revision, this.limits, this.choices);
    let entries = view.entries.filter(
      (e) => (q.capabilityId === undefined || e.id === q.capabilityId) && (q.profile === undefined || e.profiles.has(q.profile)),
    );
    if (q.needle !== undefined) {
      const definitions = await definitionsOf(entries.map((e) => e.id));
      if (!definitions) return undefined;
      entries = entries.filter((e) => textMatches(definitions.get(e.id)!, q.needle!));
    }
    const placeholders: VisibleDefinition[] = entries.map((e) => ({
      id: e.id,
      size: e.size,
      definition: { capability: { id: e.id } } as CapabilityDefinition,
    }));
    const plan = assemblePage(placeholders, q, revision, this.limits, this.choices);
    const ids = plan.capabilities.map((d) => d.capability.id);
    const definitions = await definitionsOf(ids);
    return definitions && { ...plan, capabilities: ids.map((id) => definitions.get(id)!) };
  }

  /** The context's view as cached, when it is of the current revision (read by one statement, outside any transaction). */
  private async cachedAtCurrentRevision(ctx: CatalogContext): Promise<{ view: View; revision: number } | undefined> {
    const key = viewKey(ctx);
    const cached = key === null ? undefined : this.views.get(key);
    if (key !== null && !cached) return undefined;
    const [row] = await read<{ revision: number }>(this.pool, sql('read-revision'));
    const revision = row!.revision;
    if (!cached) return { view: emptyView(revision), revision };
    return cached.revision === revision ? { view: cached, revision } : undefined;
  }

  /** The definitions of `ids` if every one is cached. */
  private cachedDefinitions(ids: readonly string[]): Map<string, CapabilityDefinition> | undefined {
    const found = new Map<string, CapabilityDefinition>();
    for (const id of ids) {
      const cached = this.definitions.get(id);
      if (!cached) return undefined;
      found.set(id, cached.definition);
    }
    return found;
  }

  private atOneRevision<T>(body: (db: Db, revision: number) => Promise<T>): Promise<T> {
    return transaction(this.pool, async (db) => {
      await run(db, sql('lock-catalog-shared'));
      const [row] = await run<{ revision: number }>(db, sql('read-revision'));
      return body(db, row!.revision);
    });
  }

  /** The view of a context: tenant context wins over unbound ([catalog-tenant-precedence]). */
  private async view(db: Db, ctx: CatalogContext, revision: number): Promise<View> {
    const key = viewKey(ctx);
    if (key === null) return emptyView(revision);
    const cached = this.views.get(key);
    if (cached && cached.revision === revision) return cached;
    const entries = ctx.tenant_id !== null ? await this.tenantView(db, ctx.tenant_id) : await this.internalView(db);
    entries.sort((a, b) => compareBytes(a.id, b.id));
    const view: View = { revision, entries, byId: new Map(entries.map((e) => [e.id, e])) };
    this.views.delete(key);
    if (this.views.size >= MAX_VIEWS) this.views.delete(this.views.keys().next().value!);
    this.views.set(key, view);
    return view;
  }

  private async tenantView(db: Db, tenantId: string): Promise<ViewEntry[]> {
    const rows = await run<{ capability_id: string; canonical_size: number; profile_ids: string[] }>(db, sql('catalog-tenant-view'), [
      tenantId,
    ]);
    return rows.map((row) => ({ id: row.capability_id, size: row.canonical_size, profiles: new Set(row.profile_ids) }));
  }

  /** [catalog-internal]: capabilities of active, qualified versions of enabled types. */
  private async internalView(db: Db): Promise<ViewEntry[]> {
    const versions = (
      await run<{ version_id: string; status: string; supply_chain_qualified: boolean; type_enabled: boolean; profile_ids: string[] }>(
        db,
        sql('catalog-active-versions'),
      )
    ).filter((v) => v.status === 'active' && v.supply_chain_qualified && v.type_enabled);
    const profiles = new Map(versions.map((v) => [v.version_id, v.profile_ids]));
    if (versions.length === 0) return [];
    const rows = await run<{ capability_id: string; canonical_size: number; version_ids: string[] }>(
      db,
      sql('catalog-version-capabilities'),
      [[...profiles.keys()]],
    );
    return rows.map((row) => ({
      id: row.capability_id,
      size: row.canonical_size,
      profiles: new Set(row.version_ids.flatMap((v) => profiles.get(v) ?? [])),
    }));
  }

  /** The definitions of `ids`, from the cache or the database. */
  private async loadDefinitions(db: Db, ids: readonly string[]): Promise<Map<string, CapabilityDefinition>> {
    const found = new Map<string, CapabilityDefinition>();
    const missing: string[] = [];
    for (const id of ids) {
      const cached = this.definitions.get(id);
      if (cached) found.set(id, cached.definition);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const rows = await run<{ capability_id: string; definition: CapabilityDefinition; canonical_size: number }>(
      db,
      sql('load-definitions'),
      [missing],
    );
    for (const row of rows) {
      found.set(row.capability_id, row.definition);
      // Bounded: the oldest entries go first; an evicted definition is read again when needed.
      while (this.cachedBytes + row.canonical_size > MAX_CACHED_DEFINITION_BYTES && this.definitions.size > 0) {
        const [oldest, entry] = this.definitions.entries().next().value!;
        this.definitions.delete(oldest);
        this.cachedBytes -= entry.size;
      }
      this.definitions.set(row.capability_id, { definition: row.definition, size: row.canonical_size });
      this.cachedBytes += row.canonical_size;
    }
    return found;
  }
}
