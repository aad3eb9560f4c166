// Pagination (spec.md §8).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CapabilityPage, CatalogContext } from '../../../../contract/records.ts';
import type { RegistryStore } from '../../registry-store.ts';
import { rejectsWith } from './expect.ts';
import { b, tenant, withWorld, type StoreFactory } from './world.ts';

async function walk(store: RegistryStore, limit: number, ctx: CatalogContext): Promise<CapabilityPage[]> {
  const pages: CapabilityPage[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.queryCatalog({ limit, ...(cursor ? { cursor } : {}) }, ctx);
    pages.push(page);
    cursor = page.next_cursor ?? undefined;
  } while (cursor && pages.length < 1000);
  return pages;
}

const MIXED = ['cap:pg:b', 'cap:pg:B', 'cap:pg:a', 'cap:pg:A', 'cap:pg:_', 'cap:pg:0', 'cap:pg:a.b', 'cap:pg:a-b', 'cap:pg:zz'];

export function paginationBehaviour(factory: StoreFactory): void {
  describe('pagination', () => {
    it('[page-order] capability ids in byte order', () =>
      withWorld(factory, async (w) => {
        await w.fleet({ name: 'order', capabilities: MIXED });
        const page = await w.store.queryCatalog({}, tenant('tenant-a'));
        const got = page.capabilities.map((d) => d.capability.id);
        const bytes = [...MIXED].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
        assert.deepEqual(got, bytes);
      }));

    it('[page-limit] default 50, bounded by max_page_size, never more items than the limit', () =>
      withWorld(factory, async (w) => {
        const caps = Array.from({ length: 60 }, (_, i) => `cap:lim:${String(i).padStart(3, '0')}`);
        await w.fleet({ name: 'lim', capabilities: caps });
        assert.equal((await w.store.queryCatalog({}, tenant('tenant-a'))).capabilities.length, 50);
        assert.equal((await w.store.queryCatalog({ limit: 7 }, tenant('tenant-a'))).capabilities.length, 7);
        for (const limit of [0, -1, 1.5, w.store.limits.max_page_size + 1]) {
          await rejectsWith(w.store.queryCatalog({ limit }, tenant('tenant-a')), 'INVALID_REQUEST');
        }
      }));

    it('[page-bytes] a page stops before its canonical size exceeds max_page_bytes', () =>
      withWorld(
        factory,
        async (w) => {
          const caps = Array.from({ length: 6 }, (_, i) => b.capability(`cap:bytes:${i}`, { description: 'd'.repeat(2500) }));
          await w.store.putConnectorType(b.connectorType('ctype_bytes'));
          await w.store.admitVersion(b.version('cver_bytes', 'ctype_bytes', caps));
          await w.store.putInstance(b.instance('cinst_bytes', 'ctype_bytes', 'cver_bytes', 'tenant-a'));
          for (const c of caps) await w.store.putBinding(b.binding('tenant-a', c.id, 'cinst_bytes'));
          const pages = await walk(w.store, 200, tenant('tenant-a'));
          assert.ok(pages.length >= 3, `6 definitions of ~2.7 KB should take 3 pages of 8 KiB, took ${pages.length}`);
          for (const p of pages) {
            const size = p.capabilities.reduce((n, d) => n + Buffer.byteLength(JSON.stringify(d)), 0);
            assert.ok(size <= 8192, `page of ${size} bytes exceeds the bound`);
            assert.ok(p.capabilities.length >= 1);
          }
          assert.equal(pages.flatMap((p) => p.capabilities).length, 6);
        },
        { max_page_bytes: 8192, max_capability_bytes: 4096 },
      ));

    it('[page-revision] revision and total hold across a walk', () =>
      withWorld(factory, async (w) => {
        const caps = Array.from({ length: 23 }, (_, i) => `cap:rev:${String(i).padStart(2, '0')}`);
        await w.fleet({ name: 'prev', capabilities: caps });
        const pages = await walk(w.store, 5, tenant('tenant-a'));
        assert.equal(pages.length, 5);
        for (const p of pages) {
          assert.equal(p.catalog_revision, pages[0]!.catalog_revision);
          assert.equal(p.total, 23);
        }
      }));

    it('[page-cursor] a walk returns every match once, and the last page has no cursor', () =>
      withWorld(factory, async (w) => {
        await w.fleet({ name: 'walk', capabilities: MIXED });
        for (const limit of [1, 2, 4, 9, 10]) {
          const pages = await walk(w.store, limit, tenant('tenant-a'));
          const seen = pages.flatMap((p) => p.capabilities.map((d) => d.capability.id));
          assert.deepEqual(
            seen,
            [...MIXED].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))),
            `limit ${limit}`,
          );
          assert.equal(pages.at(-1)!.next_cursor, null);
          for (const p of pages.slice(0, -1)) assert.notEqual(p.next_cursor, null);
        }
      }));

    it('[page-stale-cursor] any catalog change makes outstanding cursors stale', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'stale', capabilities: MIXED });
        const first = await w.store.queryCatalog({ limit: 2 }, tenant('tenant-a'));
        await w.store.putBinding({ ...f.binding, priority: 5, policy_revision: 2 });
        await rejectsWith(w.store.queryCatalog({ limit: 2, cursor: first.next_cursor! }, tenant('tenant-a')), 'STALE_CURSOR');
        await rejectsWith(w.store.queryCatalog({ limit: 2, cursor: first.next_cursor!, text: 'zz' }, tenant('tenant-a')), 'STALE_CURSOR');
        const fresh = await w.store.queryCatalog({ limit: 2 }, tenant('tenant-a'));
        assert.notEqual(fresh.catalog_revision, first.catalog_revision);
      }));

    it('[page-stale-cursor] heartbeats and routing keep cursors valid', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'valid', capabilities: MIXED });
        const first = await w.store.queryCatalog({ limit: 2 }, tenant('tenant-a'));
        await w.health(f.replicas[0]!.id, { capacity: 50 });
        const v = await w.resolve('tenant-a', 'act-valid', MIXED[0]!);
        await w.settle(v);
        const next = await w.store.queryCatalog({ limit: 2, cursor: first.next_cursor! }, tenant('tenant-a'));
        assert.equal(next.catalog_revision, first.catalog_revision);
      }));

    it('[page-invalid-cursor] cursors the store did not issue are refused', () =>
      withWorld(factory, async (w) => {
        await w.fleet({ name: 'bad', capabilities: MIXED });
        const rev = await w.store.catalogRevision();
        for (const cursor of ['garbage', ':cap:pg:a', `${rev}:`, 'x1:cap', '-1:cap:pg:a', `${rev}`]) {
          await rejectsWith(w.store.queryCatalog({ cursor }, tenant('tenant-a')), 'INVALID_REQUEST');
        }
        await rejectsWith(w.store.queryCatalog({ cursor: `${rev + 1}:cap:pg:a` }, tenant('tenant-a')), 'STALE_CURSOR');
      }));
  });
}
