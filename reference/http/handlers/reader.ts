// Record reads by key ([records-reads], [admission-counter-read]).
import type { ScopeKind } from '../../../contract/errors.ts';
import { found, ok, type HandlerTable } from '../operation.ts';

export const readerHandlers: HandlerTable = {
  getConnectorType: {
    async handle({ params }, { store }) {
      return found(await store.getConnectorType(params['type_id']!), 'connector type');
    },
  },
  getVersion: {
    async handle({ params }, { store }) {
      return found(await store.getVersion(params['version_id']!), 'version');
    },
  },
  getInstance: {
    async handle({ params }, { store }) {
      return found(await store.getInstance(params['instance_id']!), 'instance');
    },
  },
  getBinding: {
    async handle({ params }, { store }) {
      return found(await store.getBinding(params['tenant_id']!, params['capability_id']!, params['instance_id']!), 'binding');
    },
  },
  getAdmissionPolicy: {
    async handle({ params }, { store }) {
      return found(await store.getAdmissionPolicy(params['policy_ref']!), 'admission policy');
    },
  },
  getReplica: {
    async handle({ params }, { store }) {
      return found(await store.getReplica(params['replica_id']!), 'replica');
    },
  },
  getAdmissionCounter: {
    async handle({ params }, { store }) {
      return ok(await store.getAdmissionCounter(params['kind'] as ScopeKind, params['key']!));
    },
  },
};
