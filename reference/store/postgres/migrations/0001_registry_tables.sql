-- The registry's records as normalized tables. Columns hold what queries
-- filter, join, order or lock on; a `json` column keeps a record's free text
-- exactly as written (json, unlike jsonb and text, accepts every character a
-- caller may send, U+0000 included). Identifiers use the "C" collation so
-- that ORDER BY is byte order, the order of catalog pages ([page-order]).
-- Times are BIGINT milliseconds since the epoch, taken from the store's clock.

CREATE TABLE catalog_revision (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  revision bigint NOT NULL CHECK (revision >= 0),
  published_at_ms bigint NOT NULL
);
INSERT INTO catalog_revision (singleton, revision, published_at_ms) VALUES (true, 0, 0);

CREATE TABLE connector_types (
  type_id text COLLATE "C" PRIMARY KEY,
  enabled boolean NOT NULL,
  -- {id, name, owner, enabled} as admitted; `enabled` is rewritten with the column.
  record json NOT NULL
);

-- A version's manifest is normalized: its profiles and capabilities are rows
-- with their manifest position, and each capability is the shared definition
-- (identical by [records-capability-contract]), stored once.
CREATE TABLE connector_versions (
  version_id text COLLATE "C" PRIMARY KEY,
  type_id text COLLATE "C" NOT NULL REFERENCES connector_types,
  version text COLLATE "C" NOT NULL,
  status text NOT NULL CHECK (status IN ('admitted', 'active', 'revoked')),
  artifact_digest text COLLATE "C" NOT NULL UNIQUE,
  -- Copied into every assignment ([assignment-fields]).
  manifest_digest text NOT NULL,
  supply_chain_qualified boolean NOT NULL,
  admitted_at_ms bigint NOT NULL,
  attestation json NOT NULL,
  UNIQUE (type_id, version)
);

CREATE TABLE capability_definitions (
  capability_id text COLLATE "C" PRIMARY KEY,
  -- Byte length of the definition's canonical JSON, for page byte limits.
  canonical_size integer NOT NULL CHECK (canonical_size > 0),
  definition json NOT NULL
);

CREATE TABLE version_capabilities (
  version_id text COLLATE "C" NOT NULL REFERENCES connector_versions,
  capability_id text COLLATE "C" NOT NULL REFERENCES capability_definitions,
  ordinal integer NOT NULL,
  PRIMARY KEY (version_id, capability_id)
);
-- The internal catalog view starts from a capability's versions.
CREATE INDEX version_capabilities_by_capability ON version_capabilities (capability_id, version_id);

CREATE TABLE version_profiles (
  version_id text COLLATE "C" NOT NULL REFERENCES connector_versions,
  profile_id text COLLATE "C" NOT NULL,
  ordinal integer NOT NULL,
  PRIMARY KEY (version_id, profile_id)
);

CREATE TABLE connector_instances (
  instance_id text COLLATE "C" PRIMARY KEY,
  type_id text COLLATE "C" NOT NULL REFERENCES connector_types,
  version_id text COLLATE "C" NOT NULL REFERENCES connector_versions,
  tenant_id text COLLATE "C" NOT NULL,
  config_revision bigint NOT NULL CHECK (config_revision >= 0),
  secret_provider_ref text NOT NULL,
  status text NOT NULL CHECK (status IN ('enabled', 'disabled'))
);

CREATE TABLE admission_policies (
  policy_ref text COLLATE "C" PRIMARY KEY,
  revision bigint NOT NULL CHECK (revision > 0),
  enabled boolean NOT NULL,
  max_global_in_flight bigint NOT NULL,
  max_tenant_in_flight bigint NOT NULL,
  max_connector_type_in_flight bigint NOT NULL,
  max_instance_in_flight bigint NOT NULL,
  max_binding_in_flight bigint NOT NULL,
  max_tenant_retry_in_flight bigint NOT NULL,
  circuit_failure_threshold bigint NOT NULL,
  circuit_open_ms bigint NOT NULL
);

CREATE TABLE capability_bindings (
  tenant_id text COLLATE "C" NOT NULL,
  capability_id text COLLATE "C" NOT NULL REFERENCES capability_definitions,
  instance_id text COLLATE "C" NOT NULL REFERENCES connector_instances,
  priority bigint NOT NULL CHECK (priority >= 0),
  policy_revision bigint NOT NULL CHECK (policy_revision >= 0),
  credential_revision_ref text,
  quota_policy_ref text COLLATE "C" REFERENCES admission_policies,
  enabled boolean NOT NULL,
  -- bindingScopeKey(tenant, capability, instance), computed once at creation.
  scope_key text NOT NULL,
  -- The key's prefixes serve routing (tenant, capability) and the tenant's
  -- catalog view (tenant).
  PRIMARY KEY (tenant_id, capability_id, instance_id)
);
-- A rollout checks the enabled bindings of one instance ([records-instance-rollout]).
CREATE INDEX capability_bindings_enabled_by_instance ON capability_bindings (instance_id) WHERE enabled;

-- fillfactor leaves room on each page so that the hot counter updates stay
-- HOT (no index writes): no index covers the columns they change.
CREATE TABLE connector_replicas (
  replica_id text COLLATE "C" PRIMARY KEY,
  instance_id text COLLATE "C" NOT NULL REFERENCES connector_instances,
  version_id text COLLATE "C" NOT NULL REFERENCES connector_versions,
  region text COLLATE "C" NOT NULL,
  zone text COLLATE "C" NOT NULL,
  capacity_class text COLLATE "C" NOT NULL,
  status text NOT NULL CHECK (status IN ('ready', 'draining', 'offline')),
  lease_expires_at_ms bigint NOT NULL,
  capacity bigint NOT NULL CHECK (capacity > 0),
  health_revision bigint NOT NULL CHECK (health_revision >= 0),
  active_assignments bigint NOT NULL DEFAULT 0 CHECK (active_assignments >= 0),
  consecutive_failures bigint NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
  circuit_open_until_ms bigint NOT NULL DEFAULT 0,
  -- tiebreakHash(replica_id): the replica's half of the [route-tiebreak] key.
  tiebreak_hash bigint NOT NULL CHECK (tiebreak_hash BETWEEN 0 AND 4294967295),
  -- The provisioned record; its health fields are the columns above.
  provision json NOT NULL,
  CHECK (active_assignments <= capacity)
) WITH (fillfactor = 80);
-- Route selection reads the replicas of each eligible binding's instance.
CREATE INDEX connector_replicas_by_instance ON connector_replicas (instance_id, version_id);
-- Lease maintenance walks live replicas in lease order ([lease-expiry-bounded]).
CREATE INDEX connector_replicas_live_by_lease ON connector_replicas (lease_expires_at_ms, replica_id) WHERE status <> 'offline';

CREATE TABLE route_assignments (
  action_id text COLLATE "C" PRIMARY KEY,
  tenant_id text COLLATE "C" NOT NULL,
  capability_id text COLLATE "C" NOT NULL,
  replica_id text COLLATE "C" NOT NULL REFERENCES connector_replicas,
  -- The pinned version, checked on every retry ([pinned-replica-conditions]).
  version_id text COLLATE "C" NOT NULL,
  fence_token text COLLATE "C" NOT NULL UNIQUE,
  reserved boolean NOT NULL,
  last_settlement text CHECK (last_settlement IN ('completed', 'outcome_unknown', 'cancelled', 'lease_expired')),
  -- The scopes the current attempt holds; [] once released.
  reservation_scopes json NOT NULL,
  -- The immutable assignment, exactly as first returned.
  assignment json NOT NULL,
  assigned_at_ms bigint NOT NULL
) WITH (fillfactor = 80);
-- Lease expiry releases the reservations held on a replica.
CREATE INDEX route_assignments_reserved_by_replica ON route_assignments (replica_id) WHERE reserved;

CREATE TABLE admission_counters (
  scope_kind text COLLATE "C" NOT NULL
    CHECK (scope_kind IN ('global', 'tenant', 'connector_type', 'instance', 'binding', 'tenant_retry')),
  scope_key text COLLATE "C" NOT NULL,
  active bigint NOT NULL CHECK (active >= 0),
  PRIMARY KEY (scope_kind, scope_key)
) WITH (fillfactor = 80);
