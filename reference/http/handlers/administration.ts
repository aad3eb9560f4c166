// Catalog administration and replica lifecycle writes (spec.md §4, §17).
import type {
  AdmissionPolicy,
  BatchItem,
  CapabilityBinding,
  ConnectorInstance,
  ConnectorType,
  HealthReport,
  ReplicaProvision,
  VersionAdmission,
  VersionStatus,
} from '../../../contract/records.ts';
import { RegistryError } from '../../../contract/registry-error.ts';
import { BATCH_OP_ROLES } from '../../store/batch.ts';
import type { Principal } from '../authenticate.ts';
import { ok, principalOf, samePathId, type HandlerTable } from '../operation.ts';

const BATCH_ROLES = new Set<string>(Object.values(BATCH_OP_ROLES));

const forbidden = (message: string) => new RegistryError('FORBIDDEN', message);

export const administrationHandlers: HandlerTable = {
  putConnectorType: {
    async handle({ params, body }, { store }) {
      const record = body as ConnectorType;
      samePathId(params['type_id'], record.id, 'id');
      return ok(await store.putConnectorType(record));
    },
  },
  setConnectorTypeEnabled: {
    async handle({ params, body }, { store }) {
      return ok(await store.setConnectorTypeEnabled(params['type_id']!, (body as { enabled: boolean }).enabled));
    },
  },
  admitVersion: {
    async handle({ params, body }, { store }) {
      const record = body as VersionAdmission;
      samePathId(params['version_id'], record.id, 'id');
      return ok(await store.admitVersion(record));
    },
  },
  setVersionStatus: {
    async handle({ params, body }, { store }) {
      return ok(await store.setVersionStatus(params['version_id']!, (body as { status: VersionStatus }).status));
    },
  },
  putInstance: {
    async handle({ params, body }, { store }) {
      const record = body as ConnectorInstance;
      samePathId(params['instance_id'], record.id, 'id');
      return ok(await store.putInstance(record));
    },
  },
  putBinding: {
    async handle({ params, body }, { store }) {
      const record = body as CapabilityBinding;
      samePathId(params['tenant_id'], record.tenant_id, 'tenant_id');
      samePathId(params['capability_id'], record.capability_id, 'capability_id');
      samePathId(params['instance_id'], record.instance_id, 'instance_id');
      return ok(await store.putBinding(record));
    },
  },
  putAdmissionPolicy: {
    async handle({ params, body }, { store }) {
      const record = body as AdmissionPolicy;
      samePathId(params['policy_ref'], record.policy_ref, 'policy_ref');
      return ok(await store.putAdmissionPolicy(record));
    },
  },
  provisionReplica: {
    async handle({ params, body }, { store }) {
      const record = body as ReplicaProvision;
      samePathId(params['replica_id'], record.id, 'id');
      return ok(await store.provisionReplica(record));
    },
  },
  reportHealth: {
    async handle({ params, body }, { store }) {
      return ok(await store.reportHealth(params['replica_id']!, body as HealthReport));
    },
  },
  applyBatch: {
    // Every batch holds at least one item, so a token with neither batch role
    // is refused before its body is read ([auth-before-state]).
    authorize(principal: Principal) {
      for (const role of BATCH_ROLES) if (principal.roles.has(role)) return;
      throw forbidden(`a batch needs ${[...BATCH_ROLES].join(' or ')}`);
    },
    // [batch-roles]: every role any item needs, checked before any item applies.
    async handle(input, { store }) {
      const { items } = input.body as { items: BatchItem[] };
      const roles = principalOf(input).roles;
      for (const item of items) {
        const needed = BATCH_OP_ROLES[item.op];
        if (!roles.has(needed)) throw forbidden(`batch item ${item.op} needs ${needed}`);
      }
      return ok(await store.applyBatch(items));
    },
  },
};
