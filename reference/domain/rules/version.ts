// Version admission and status (spec.md [records-version-*], [records-capability-contract]).
import type {
  CapabilityDefinition,
  ConnectorType,
  ConnectorVersion,
  RegistryLimits,
  VersionAdmission,
  VersionStatus,
  WriteOutcome,
} from '../../../contract/records.ts';
import { REFERENCE_CHOICES, type ReferenceChoices } from '../choices.ts';
import { manifestFacts, sizedCapabilityDefinition } from '../digest.ts';
import { admissionRejected, conflict, notFound } from '../../../contract/registry-error.ts';
import { assertNestingAtMost, assertShape, assertUnique, jsonEqual } from '../validation.ts';

export interface AdmissionContext {
  existing: ConnectorVersion | undefined;
  type: ConnectorType | undefined;
  /** The id of a version of this type with the same version string, if any. */
  versionStringOwner: string | undefined;
  /** The id of a version with the same artifact digest, if any. */
  artifactOwner: string | undefined;
  /** Stored definitions of the manifest's capability ids. */
  storedDefinition(capabilityId: string): CapabilityDefinition | undefined;
}

export interface AdmissionDecision {
  outcome: WriteOutcome;
  /** Every definition of the manifest, in manifest order, with its canonical size. */
  definitions: Array<{ definition: CapabilityDefinition; size: number; isNew: boolean }>;
}

const PASSED_FIELDS = ['conformance_status', 'vulnerability_policy_status', 'license_policy_status', 'revocation_status'] as const;

/** The fields of a stored version that the admission request carried. */
export function admissionOf(v: ConnectorVersion): VersionAdmission {
  const { supply_chain_qualified: _q, admitted_at: _a, ...admission } = v;
  return admission;
}

export function decideAdmitVersion(
  record: unknown,
  ctx: AdmissionContext,
  limits: RegistryLimits,
  choices: Pick<ReferenceChoices, 'readmitOriginal' | 'writeRulesReversed'> = REFERENCE_CHOICES,
): AdmissionDecision {
  assertShape<VersionAdmission>('VersionAdmission', record);
  // Capability schemas are free-form; bound them before anything walks them.
  assertNestingAtMost(record.manifest);
  const { manifest } = record;
  assertUnique('profile', manifest.profiles);
  assertUnique(
    'capability',
    manifest.capabilities.map((c) => c.id),
  );
  if (ctx.existing !== undefined) {
    const stored = admissionOf(ctx.existing);
    if (jsonEqual(stored, record)) return { outcome: 'unchanged', definitions: [] };
    // [records-version-immutable]: whether the status takes part in the comparison is open.
    if (choices.readmitOriginal === 'unchanged' && jsonEqual({ ...stored, status: record.status }, record))
      return { outcome: 'unchanged', definitions: [] };
    throw conflict(`version ${record.id} is immutable and exists with different content`);
  }
  // Which of several broken rules is answered is open ([error-precedence]).
  if (choices.writeRulesReversed) assertUniqueVersion(record, ctx);
  if (ctx.type === undefined) throw notFound(`connector type ${record.connector_type_id}`);
  if (!ctx.type.enabled) throw admissionRejected(`connector type ${record.connector_type_id} is disabled`);
  if (record.attestation.owner !== ctx.type.owner) throw admissionRejected('attestation owner does not match the connector type owner');
  for (const field of PASSED_FIELDS) {
    if (record.attestation[field] !== 'passed') throw admissionRejected(`attestation ${field} is ${record.attestation[field]}, not passed`);
  }
  if (manifest.capabilities.length > limits.max_capabilities_per_version) {
    throw admissionRejected(`manifest declares more than ${limits.max_capabilities_per_version} capabilities`);
  }
  // Each capability is serialised once; the manifest's canonical form is assembled from them.
  const sized = manifest.capabilities.map(sizedCapabilityDefinition);
  const facts = manifestFacts(
    manifest,
    sized.map((s) => s.canonicalCapability),
  );
  if (facts.size > limits.max_manifest_bytes) throw admissionRejected(`manifest exceeds ${limits.max_manifest_bytes} bytes`);
  if (facts.digest !== record.manifest_digest) throw admissionRejected('manifest_digest does not match the canonical manifest');
  const definitions = sized.map(({ definition, size }) => {
    if (size > limits.max_capability_bytes)
      throw admissionRejected(`capability ${definition.capability.id} exceeds ${limits.max_capability_bytes} bytes`);
    return { definition, size, isNew: true };
  });
  assertUniqueVersion(record, ctx);
  for (const d of definitions) {
    const stored = ctx.storedDefinition(d.definition.capability.id);
    if (stored === undefined) continue;
    // The contract digest is the SHA-256 of the whole canonical capability: equal digests, equal definitions.
    if (stored.contract_digest !== d.definition.contract_digest)
      throw conflict(`capability ${d.definition.capability.id} exists with a different contract`);
    d.isNew = false;
  }
  return { outcome: 'applied', definitions };
}

function assertUniqueVersion(record: VersionAdmission, ctx: AdmissionContext): void {
  if (ctx.versionStringOwner !== undefined) throw conflict(`connector type already has version ${record.version}`);
  if (ctx.artifactOwner !== undefined) throw conflict('artifact digest already belongs to another version');
}

export function decideSetVersionStatus(id: string, status: unknown, existing: ConnectorVersion | undefined): WriteOutcome {
  assertShape<string>('VersionId', id);
  assertShape<{ status: VersionStatus }>('VersionStatusChange', { status });
  if (existing === undefined) throw notFound(`version ${id}`);
  if (existing.status === status) return 'unchanged';
  if (existing.status === 'revoked') throw conflict('a revoked version cannot change status');
  return 'applied';
}
