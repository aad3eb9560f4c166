// Factories for valid fleetproof-registry/v1 records, used wherever the
// project needs data: the store behaviour suite, conformance fixtures,
// property models and the k6 dataset. Plain JavaScript so k6 can import it;
// the caller supplies SHA-256 (node:crypto or k6/crypto).
import { canonicalJson } from './canonical-json.js';

/** @typedef {import('./records.ts').ConnectorType} ConnectorType */
/** @typedef {import('./records.ts').Capability} Capability */
/** @typedef {import('./records.ts').VersionAdmission} VersionAdmission */
/** @typedef {import('./records.ts').ConnectorInstance} ConnectorInstance */
/** @typedef {import('./records.ts').CapabilityBinding} CapabilityBinding */
/** @typedef {import('./records.ts').AdmissionPolicy} AdmissionPolicy */
/** @typedef {import('./records.ts').ReplicaProvision} ReplicaProvision */
/** @typedef {import('./records.ts').HealthReport} HealthReport */

export const DEFAULT_OWNER = 'fleetproof fixtures';
export const DEFAULT_PROFILE = 'aip.native.http.v1';
export const SCOPE_OFF = 4294967295;

/** @param {number} ms */
export function timestamp(ms) {
  return new Date(ms).toISOString();
}

/**
 * @param {(text: string) => string} sha256Hex lowercase hex SHA-256 of UTF-8 text
 */
export function recordBuilders(sha256Hex) {
  /** @param {unknown} value */
  const digestOf = (value) => 'sha256:' + sha256Hex(canonicalJson(value));
  /** @param {string} label */
  const fakeDigest = (label) => 'sha256:' + sha256Hex(label);

  return {
    digestOf,
    fakeDigest,

    /**
     * @param {string} id
     * @param {Partial<ConnectorType>} [over]
     * @returns {ConnectorType}
     */
    connectorType(id, over = {}) {
      return { id, name: `type ${id}`, owner: DEFAULT_OWNER, enabled: true, ...over };
    },

    /**
     * @param {string} id
     * @param {Partial<Capability>} [over]
     * @returns {Capability}
     */
    capability(id, over = {}) {
      return {
        id,
        name: `capability ${id}`,
        kind: 'tool',
        description: `Runs ${id}.`,
        input_schema: { type: 'object', properties: { query: { type: 'string' } } },
        output_schema: { type: 'object' },
        ...over,
      };
    },

    /**
     * A version whose manifest digest matches its manifest and whose evidence
     * passes; `over` may break either on purpose.
     * @param {string} id
     * @param {string} typeId
     * @param {Capability[]} capabilities
     * @param {Partial<VersionAdmission> & { profiles?: string[], owner?: string }} [over]
     * @returns {VersionAdmission}
     */
    version(id, typeId, capabilities, over = {}) {
      const { profiles = [DEFAULT_PROFILE], owner = DEFAULT_OWNER, ...rest } = over;
      const manifest = { profiles, capabilities };
      return {
        id,
        connector_type_id: typeId,
        version: '1.0.0',
        status: 'active',
        manifest,
        manifest_digest: digestOf(manifest),
        attestation: {
          artifact_digest: fakeDigest(`artifact:${id}`),
          sbom_digest: fakeDigest(`sbom:${id}`),
          provenance_digest: fakeDigest(`provenance:${id}`),
          signature_ref: `sigstore:${id}`,
          signer_identity: 'release-bot@fleetproof.test',
          owner,
          conformance_status: 'passed',
          vulnerability_policy_status: 'passed',
          license_policy_status: 'passed',
          revocation_status: 'passed',
        },
        ...rest,
      };
    },

    /**
     * @param {string} id
     * @param {string} typeId
     * @param {string} versionId
     * @param {string} tenantId
     * @param {Partial<ConnectorInstance>} [over]
     * @returns {ConnectorInstance}
     */
    instance(id, typeId, versionId, tenantId, over = {}) {
      return {
        id,
        connector_type_id: typeId,
        version_id: versionId,
        tenant_id: tenantId,
        config_revision: 1,
        secret_provider_ref: `vault://${tenantId}/${id}`,
        status: 'enabled',
        ...over,
      };
    },

    /**
     * @param {string} tenantId
     * @param {string} capabilityId
     * @param {string} instanceId
     * @param {Partial<CapabilityBinding>} [over]
     * @returns {CapabilityBinding}
     */
    binding(tenantId, capabilityId, instanceId, over = {}) {
      return {
        tenant_id: tenantId,
        capability_id: capabilityId,
        instance_id: instanceId,
        priority: 0,
        policy_revision: 1,
        credential_revision_ref: 'credential-revision-1',
        quota_policy_ref: null,
        enabled: true,
        ...over,
      };
    },

    /**
     * A policy with every scope off and a lenient circuit; override what a test needs.
     * @param {string} ref
     * @param {Partial<AdmissionPolicy>} [over]
     * @returns {AdmissionPolicy}
     */
    policy(ref, over = {}) {
      return {
        policy_ref: ref,
        revision: 1,
        enabled: true,
        max_global_in_flight: SCOPE_OFF,
        max_tenant_in_flight: SCOPE_OFF,
        max_connector_type_in_flight: SCOPE_OFF,
        max_instance_in_flight: SCOPE_OFF,
        max_binding_in_flight: SCOPE_OFF,
        max_tenant_retry_in_flight: SCOPE_OFF,
        circuit_failure_threshold: 1000,
        circuit_open_ms: 30000,
        ...over,
      };
    },

    /**
     * A ready replica whose lease ends at `leaseMs`.
     * @param {string} id
     * @param {string} instanceId
     * @param {string} versionId
     * @param {number} leaseMs
     * @param {Partial<ReplicaProvision>} [over]
     * @returns {ReplicaProvision}
     */
    replica(id, instanceId, versionId, leaseMs, over = {}) {
      return {
        id,
        instance_id: instanceId,
        version_id: versionId,
        endpoint: `https://${id.replace(/_/g, '-')}.fleet.invalid/aip/v1/messages`,
        peer_principal_id: `service:${id}`,
        peer_principal_kind: 'service',
        peer_did: `did:key:${id}`,
        trust_domain: 'fleet.test',
        transport_profile: DEFAULT_PROFILE,
        topology: { region: 'global', zone: 'default', capacity_class: 'standard' },
        health_revision: 1,
        status: 'ready',
        lease_expires_at: timestamp(leaseMs),
        capacity: 10,
        ...over,
      };
    },

    /**
     * @param {number} healthRevision
     * @param {number} leaseMs
     * @param {Partial<HealthReport>} [over]
     * @returns {HealthReport}
     */
    health(healthRevision, leaseMs, over = {}) {
      return { health_revision: healthRevision, status: 'ready', lease_expires_at: timestamp(leaseMs), capacity: 10, ...over };
    },
  };
}
