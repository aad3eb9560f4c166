-- fleetproof_new_route: a new action's route ([route-binding-unavailable],
-- [route-replica-unavailable], [route-admission-policy], [route-atomic]),
-- decided and stored within fleetproof_resolve, which holds the action's
-- lock and the shared publication lock. The domain's rules
-- (resolve-decision.ts, admission.ts, assignment.ts) restated: the eligible
-- bindings, the replica, the binding's admission policy (the implicit
-- default when it names none; disabled is ADMISSION_REJECTED), the scopes
-- that have a limit, and the assignment. The assignment is written in the
-- order contract/records.ts declares its fields and as compact as
-- JSON.stringify writes it (its peer fields and topology are the replica's
-- assignment_peer, cut from the provisioned record), so that a settlement
-- can compare the text it is presented with the stored text.
--
-- Locks, in the order every transaction takes them (the advisory locks are
-- the caller's):
-- 1. The replica row, taken by fleetproof_take_replica (whose header gives
--    how contention is waited for); the first row lock.
-- 2. The selected binding's chain and policy: read under the publication
--    lock, no row locks.
-- 3. Admission counters, by fleetproof_reserve_scopes, in scope order; a
--    scope at its limit aborts the transaction, undoing the replica's unit.
-- 4. The route row is inserted last, naming the replica row this
--    transaction holds (no foreign key: no statement deletes a replica).
--
-- Parameters: action, tenant and capability ids; the catalog revision read
-- under the publication lock; the eligible bindings' keys and priority ends
-- (fleetproof_eligible_bindings); the rest as fleetproof_resolve's.
-- Outcomes: 'created' (assignment set; alone as fleetproof_take_replica's), 'binding_unavailable',
-- 'replica_unavailable' or 'contended' (detail: the instance
-- [route-replica-unavailable] names).
CREATE OR REPLACE FUNCTION fleetproof_new_route(
  p_action_id text, p_tenant_id text, p_capability_id text, p_revision bigint, p_keys text[], p_tier_ends integer[],
  p_now bigint, p_assigned_at text, p_fence_token text,
  p_capacity_class text, p_residency text, p_region text, p_zone text, p_tiebreak bigint,
  p_default_policy bigint[], p_scope_off bigint, p_name_last boolean,
  OUT outcome text, OUT detail text, OUT assignment json, OUT alone boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_taken record;
  v_replica connector_replicas;
  v_chain record;
  v_policy bigint[];
  v_kinds text[];
  v_keys text[];
  v_limits bigint[];
  v_scopes text := '[]';
BEGIN
  IF cardinality(p_keys) = 0 THEN
    outcome := 'binding_unavailable';
    RETURN;
  END IF;

  -- 1. The replica, with its unit.
  v_taken := fleetproof_take_replica(p_tenant_id, p_keys, p_tier_ends, p_now, p_capacity_class, p_residency, p_region, p_zone, p_tiebreak);
  IF v_taken.outcome <> 'taken' THEN
    outcome := CASE WHEN v_taken.outcome = 'contended' THEN 'contended' ELSE 'replica_unavailable' END;
    -- The first eligible binding, or the last of those sharing its priority.
    detail := split_part(p_keys[CASE WHEN p_name_last THEN p_tier_ends[1] ELSE 1 END], ' ', 1);
    RETURN;
  END IF;
  v_replica := v_taken.replica;
  alone := v_taken.alone;

  -- 2. The binding's chain and admission policy (revision, the six scope
  -- limits in scope order, circuit threshold and open ms).
  SELECT b.policy_revision, b.credential_revision_ref, b.quota_policy_ref, b.scope_key, i.version_id, v.manifest_digest,
    v.type_id, p.enabled AS policy_enabled,
    CASE WHEN b.quota_policy_ref IS NULL THEN p_default_policy
      ELSE ARRAY[p.revision, p.max_global_in_flight, p.max_tenant_in_flight, p.max_connector_type_in_flight,
        p.max_instance_in_flight, p.max_binding_in_flight, p.max_tenant_retry_in_flight, p.circuit_failure_threshold,
        p.circuit_open_ms] END AS policy
  INTO v_chain
  FROM capability_bindings b
  JOIN connector_instances i ON i.instance_id = b.instance_id
  JOIN connector_versions v ON v.version_id = i.version_id
  LEFT JOIN admission_policies p ON p.policy_ref = b.quota_policy_ref
  WHERE b.tenant_id = p_tenant_id AND b.capability_id = p_capability_id AND b.instance_id = v_replica.instance_id;
  IF NOT coalesce(v_chain.policy_enabled, true) THEN
    PERFORM fleetproof_refuse('admission:' || v_chain.quota_policy_ref);
  END IF;
  v_policy := v_chain.policy;

  -- 3. The base scopes that have a limit, in scope order, reserved.
  IF p_scope_off <> ANY (v_policy[2:6]) THEN
    SELECT array_agg(s.kind ORDER BY s.n), array_agg(s.key ORDER BY s.n), array_agg(s.lim ORDER BY s.n),
      '[' || string_agg(format('{"kind":"%s","key":%s,"limit":%s}', s.kind, to_json(s.key), s.lim), ',' ORDER BY s.n) || ']'
    INTO v_kinds, v_keys, v_limits, v_scopes
    FROM unnest(ARRAY['global', 'tenant', 'connector_type', 'instance', 'binding'],
      ARRAY['fleet', p_tenant_id, v_chain.type_id, v_replica.instance_id, v_chain.scope_key], v_policy[2:6])
      WITH ORDINALITY AS s(kind, key, lim, n)
    WHERE s.lim <> p_scope_off;
    PERFORM fleetproof_reserve_scopes(v_kinds, v_keys, v_limits);
  END IF;

  -- 4. The assignment, stored.
  assignment := format('{"action_id":%s,"capability_id":%s,"tenant_id":%s,"instance_id":%s,"version_id":%s,'
      '"manifest_digest":%s,"replica_id":%s,%s,"catalog_revision":%s,"binding_policy_revision":%s,'
      '"credential_revision_ref":%s,"quota_policy_ref":%s,"replica_health_revision":%s,"fence_token":%s,'
      '"admission":{"policy_ref":%s,"policy_revision":%s,"base_scopes":%s,"retry_scope":%s,'
      '"circuit_failure_threshold":%s,"circuit_open_ms":%s},"assigned_at":%s}',
    to_json(p_action_id), to_json(p_capability_id), to_json(p_tenant_id), to_json(v_replica.instance_id),
    to_json(v_chain.version_id), to_json(v_chain.manifest_digest), to_json(v_replica.replica_id), v_replica.assignment_peer,
    p_revision, v_chain.policy_revision, coalesce(to_json(v_chain.credential_revision_ref)::text, 'null'),
    coalesce(to_json(v_chain.quota_policy_ref)::text, 'null'), v_replica.health_revision, to_json(p_fence_token),
    coalesce(to_json(v_chain.quota_policy_ref)::text, 'null'), v_policy[1], v_scopes,
    CASE WHEN v_policy[7] = p_scope_off THEN 'null'
      ELSE format('{"kind":"tenant_retry","key":%s,"limit":%s}', to_json(p_tenant_id), v_policy[7]) END,
    v_policy[8], v_policy[9], to_json(p_assigned_at))::json;
  INSERT INTO route_assignments
    (action_id, tenant_id, capability_id, replica_id, version_id, fence_token, reserved, last_settlement, reservation_scopes,
     assignment, assigned_at_ms)
  VALUES (p_action_id, p_tenant_id, p_capability_id, v_replica.replica_id, v_chain.version_id, p_fence_token, true, NULL,
    v_scopes::json, assignment, p_now);
  outcome := 'created';
END
$$;
