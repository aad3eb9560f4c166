-- The candidates of the internal catalog view ([catalog-internal]): active
-- versions with their type's state and declared profiles. Runs after the
-- shared publication lock.
SELECT v.version_id, v.status, v.supply_chain_qualified, t.enabled AS type_enabled,
  ARRAY(SELECT vp.profile_id FROM version_profiles vp WHERE vp.version_id = v.version_id) AS profile_ids
FROM connector_versions v
JOIN connector_types t ON t.type_id = v.type_id
WHERE v.status = 'active'
