// A binding with the facts of its chain (instance, version, type), as the
// catalog's tenant view loads it, and the domain's chain rule applied to it
// ([catalog-tenant-visibility]).
import { bindingChainValid } from '../../domain/eligibility.ts';

export interface ChainFacts {
  instance_id: string;
  priority: number;
  policy_revision: number;
  credential_revision_ref: string | null;
  quota_policy_ref: string | null;
  enabled: boolean;
  scope_key: string;
  instance_type_id: string | null;
  version_id: string | null;
  instance_tenant_id: string | null;
  config_revision: number | null;
  secret_provider_ref: string | null;
  instance_status: 'enabled' | 'disabled' | null;
  version_status: 'admitted' | 'active' | 'revoked' | null;
  supply_chain_qualified: boolean | null;
  version_type_id: string | null;
  type_enabled: boolean | null;
  implements_capability: boolean;
}

/** [catalog-tenant-visibility] applied to one loaded binding row. */
export function chainValid(row: ChainFacts, tenantId: string, capabilityId: string): boolean {
  return bindingChainValid(
    {
      tenant_id: tenantId,
      capability_id: capabilityId,
      instance_id: row.instance_id,
      priority: row.priority,
      policy_revision: row.policy_revision,
      credential_revision_ref: row.credential_revision_ref,
      quota_policy_ref: row.quota_policy_ref,
      enabled: row.enabled,
    },
    row.instance_status === null
      ? undefined
      : {
          id: row.instance_id,
          connector_type_id: row.instance_type_id!,
          version_id: row.version_id!,
          tenant_id: row.instance_tenant_id!,
          config_revision: row.config_revision!,
          secret_provider_ref: row.secret_provider_ref!,
          status: row.instance_status,
        },
    row.version_status === null
      ? undefined
      : {
          status: row.version_status,
          supply_chain_qualified: row.supply_chain_qualified!,
          connector_type_id: row.version_type_id!,
          implements: (c) => c === capabilityId && row.implements_capability,
          declaresProfile: () => false,
        },
    row.type_enabled === null ? undefined : { enabled: row.type_enabled },
  );
}
