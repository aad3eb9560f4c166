// A case skips only where no request within the contract can provoke its
// rule. Each case that can skip runs here against registries that declare
// small legal limits (each at its minimum, several at their minima together,
// odd values just above) twice: correct, where it must pass, and enforcing
// the limit it judges far above what it declares, where it must fail, never
// skip. Where the declared limits truly leave the rule nothing to provoke,
// both end `skip` with the arithmetic in the reason.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RegistryLimits } from '../../contract/records.ts';
import { describeLimits, SMALLEST_LEGAL_LIMITS } from './legal-limits.ts';
import { caseStatus } from './limit-targets.ts';

const statusOf = (caseId: string, limits: Partial<RegistryLimits>, ignored?: Partial<RegistryLimits>) =>
  caseStatus(caseId, limits, ignored && { enforced: ignored });

const MIB = 1024 * 1024;
const MINIMA = SMALLEST_LEGAL_LIMITS;

/** Per case: the limits it judges enforced far above what is declared, and the declared settings to try. */
const PROBES: Array<{ id: string; ignored: Partial<RegistryLimits>; settings: Array<[Partial<RegistryLimits>, 'fail' | 'skip']> }> = [
  {
    id: 'records/oversized-manifest-is-admission-rejected',
    ignored: { max_manifest_bytes: 64 * MIB },
    settings: [
      [{ max_manifest_bytes: 4096 }, 'fail'],
      [MINIMA, 'fail'],
      [{ max_capabilities_per_version: 3, max_capability_bytes: 2100, max_manifest_bytes: 4200 }, 'fail'],
      [{ max_capabilities_per_version: 1, max_capability_bytes: 2048, max_manifest_bytes: 9001, max_body_bytes: 65_537 }, 'fail'],
    ],
  },
  {
    id: 'records/too-many-capabilities-is-admission-rejected',
    ignored: { max_capabilities_per_version: 100_000 },
    settings: [
      [{ max_capabilities_per_version: 1 }, 'fail'],
      [MINIMA, 'fail'],
      [{ max_capabilities_per_version: 33, max_manifest_bytes: 4097 }, 'fail'],
      [{ max_capabilities_per_version: 41, max_manifest_bytes: 4096 }, 'skip'],
    ],
  },
  {
    id: 'records/oversized-capability-is-admission-rejected',
    ignored: { max_capability_bytes: 64 * MIB, max_page_bytes: 64 * MIB },
    settings: [
      [{ max_capability_bytes: 2048 }, 'fail'],
      [MINIMA, 'fail'],
      [{ max_capability_bytes: 4096, max_page_bytes: 4096, max_manifest_bytes: 4096 }, 'fail'],
      [{ max_capability_bytes: 4099, max_page_bytes: 4099, max_manifest_bytes: 4097 }, 'fail'],
    ],
  },
  {
    id: 'pagination/page-stays-within-max-page-bytes',
    ignored: { max_page_bytes: 64 * MIB },
    settings: [
      [MINIMA, 'skip'],
      [{ ...MINIMA, max_page_size: 2 }, 'fail'],
      [{ max_page_size: 2, max_capability_bytes: 2049, max_page_bytes: 2100 }, 'fail'],
      [{ max_page_size: 3, max_capability_bytes: 2048, max_page_bytes: 6001, max_manifest_bytes: 4096 }, 'fail'],
    ],
  },
  {
    id: 'batch/empty-or-oversized-batch-is-invalid-request',
    ignored: { max_batch_items: 1_000_000 },
    settings: [
      [{ max_batch_items: 1000 }, 'fail'],
      [MINIMA, 'fail'],
      [{ max_batch_items: 3001, max_body_bytes: 65_537 }, 'fail'],
      [{ max_batch_items: 3200, max_body_bytes: 65_536 }, 'skip'],
    ],
  },
];

describe('every skip is proven: a registry ignoring the limit fails wherever a request can exceed it', () => {
  for (const { id, ignored, settings } of PROBES)
    for (const [limits, expected] of settings)
      it(`${id} with ${limits === MINIMA ? 'every limit at its minimum' : describeLimits(limits)}: ${expected}`, async () => {
        const correct = await statusOf(id, limits);
        const ignoring = await statusOf(id, limits, ignored);
        assert.match(correct, expected === 'skip' ? /^skip/ : /^pass/, 'the correct registry');
        assert.match(ignoring, new RegExp(`^${expected}`), 'the registry ignoring the limit');
      });
});
