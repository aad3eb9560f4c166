// The fleet layout at every capabilities-per-version limit: the design itself
// when three fit, else parts that fit, with every design route still there.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_LIMITS, LIMIT_MINIMUMS } from '../../contract/records.ts';
import { canonicalJson } from '../../contract/canonical-json.js';
import { definitionOf } from '../model/rules/catalog.ts';
import { seedItems } from '../model/seed-fleet.ts';
import { DESIGN_CAPABILITIES_PER_VERSION, fleetLayout, type FleetLayout } from '../targets/fleet-layout.ts';
import { universeOf } from '../targets/target.ts';

const at = (n: number) => fleetLayout({ max_capabilities_per_version: n });

/** tenant/capability → the priorities it is bound at, whichever instance serves it. */
const routes = (l: FleetLayout) => l.bindings.map((b) => `${b.tenant}/${b.capability}@${b.priority}:${b.policy}`).sort();

describe('fleet layout', () => {
  it('is the design when a version may declare three capabilities or more', () => {
    const design = at(DESIGN_CAPABILITIES_PER_VERSION);
    assert.deepEqual(at(DEFAULT_LIMITS.max_capabilities_per_version), design);
    assert.deepEqual(design.versionKeys, ['alpha-1', 'alpha-2', 'beta-1']);
    assert.deepEqual(design.instanceKeys, ['a-alpha', 'a-beta', 'b-alpha']);
    assert.deepEqual(design.versions['beta-1']!.capabilities, ['search', 'notify', 'archive']);
    assert.equal(design.bindable.length, 12);
  });

  for (const n of [LIMIT_MINIMUMS.max_capabilities_per_version, 2]) {
    it(`fits ${n} capability(ies) per version and keeps every design route`, () => {
      const l = at(n);
      const design = at(DESIGN_CAPABILITIES_PER_VERSION);
      for (const [key, v] of Object.entries(l.versions))
        assert.ok(v.capabilities.length >= 1 && v.capabilities.length <= n, `${key} declares ${v.capabilities.length}`);
      // Every capability a design version declares, some part of it of the same type still declares.
      for (const [key, v] of Object.entries(design.versions)) {
        const parts = Object.entries(l.versions).filter(([k]) => k === key || k.startsWith(`${key}_`));
        assert.deepEqual(
          parts.flatMap(([, p]) => p.capabilities),
          [...v.capabilities],
        );
        assert.ok(parts.every(([, p]) => p.type === v.type && p.status === v.status));
      }
      // Version strings stay unique per type.
      const strings = Object.values(l.versions).map((v) => `${v.type} ${v.version}`);
      assert.equal(new Set(strings).size, strings.length);
      // Each binding's instance runs a version that declares its capability, for the binding's tenant.
      for (const b of l.bindings) {
        const instance = l.instances[b.instance]!;
        assert.equal(instance.tenant, b.tenant);
        assert.ok(l.versions[instance.version]!.capabilities.includes(b.capability), `${b.instance} serves ${b.capability}`);
      }
      assert.deepEqual(routes(l), routes(design));
      // The names commands and scenarios use by name are still the instances serving search.
      for (const name of ['a-alpha', 'b-alpha']) assert.ok(l.versions[l.instances[name]!.version]!.capabilities.includes('search'));
    });
  }

  it('seeds in one batch within the smallest limits a registry may declare', () => {
    const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
    // A shared registry's namespace makes every id longer; a generous one.
    const items = seedItems(universeOf('pnamespace1.', LIMIT_MINIMUMS), Date.now());
    assert.ok(items.length <= LIMIT_MINIMUMS.max_batch_items, `${items.length} items`);
    assert.ok(bytes({ items }) <= LIMIT_MINIMUMS.max_body_bytes, `${bytes({ items })} bytes`);
    for (const item of items) {
      if (item.op !== 'admit_version') continue;
      assert.ok(
        Buffer.byteLength(canonicalJson(item.record.manifest)) <= LIMIT_MINIMUMS.max_manifest_bytes,
        `${item.record.id}'s manifest`,
      );
      for (const c of item.record.manifest.capabilities)
        assert.ok(Buffer.byteLength(canonicalJson(definitionOf(c))) <= LIMIT_MINIMUMS.max_capability_bytes, `${c.id}'s definition`);
    }
  });
});
