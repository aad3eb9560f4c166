// Registries that declare one set of limits and enforce another, and the
// status one case ends with against them: the proven skips and the at-limit
// acceptances judge the same cases under correct and off-limit registries.
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS, type RegistryLimits } from '../../contract/records.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import { NOT_PROVOCABLE } from '../harness/failure.ts';
import { runConformance } from '../runner/run.ts';
import { startReferenceTarget } from './reference-target.ts';
import { overriding } from './store-overrides.ts';

/** A memory store that declares `declared` and enforces `enforced` in their place: a registry ignoring a limit, or off by one. */
function declaringOnly(declared: RegistryLimits, enforced: Partial<RegistryLimits>): RegistryStore {
  return overriding(new MemoryStore({ limits: { ...declared, ...enforced } }), { limits: declared });
}

export interface OffLimits {
  /** Store limits enforced in place of the declared ones. */
  enforced?: Partial<RegistryLimits>;
  /** A front put before the registry, given its URL; returns the URL to judge and how to stop the front. */
  front?: (url: string) => Promise<{ url: string; close(): Promise<void> }>;
}

/** `caseId`'s status and message against the reference declaring `limits`, correct or as `off` says. */
export async function caseStatus(caseId: string, limits: Partial<RegistryLimits>, off: OffLimits = {}): Promise<string> {
  const declared = { ...DEFAULT_LIMITS, ...limits };
  const target = await startReferenceTarget({
    silent: true,
    ...(off.enforced ? { store: declaringOnly(declared, off.enforced) } : { limits: declared }),
  });
  const front = off.front ? await off.front(target.url) : undefined;
  try {
    const config = { ...target.config({ cases: [caseId], categories: [] }), ...(front ? { target: front.url } : {}) };
    const outcome = await runConformance({ config, signingKey: target.key, writeReports: false });
    assert.ok(outcome.result, outcome.error);
    const [c] = outcome.result.cases;
    assert.ok(c, `${caseId} ran`);
    if (c.status === 'skip')
      assert.ok(c.message?.startsWith(NOT_PROVOCABLE), `${caseId} skips with the declared limits as its reason: ${c.message}`);
    return `${c.status}: ${c.message ?? ''}`;
  } finally {
    await front?.close();
    await target.close();
  }
}
