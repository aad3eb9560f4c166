-- Versions by id, with their capability and profile ids in manifest order.
-- No lock: catalog writers read under the exclusive publication lock.
SELECT v.version_id, v.type_id, v.version, v.status, v.manifest_digest, v.attestation, v.supply_chain_qualified,
  v.admitted_at_ms,
  ARRAY(SELECT vc.capability_id FROM version_capabilities vc WHERE vc.version_id = v.version_id ORDER BY vc.ordinal)
    AS capability_ids,
  ARRAY(SELECT vp.profile_id FROM version_profiles vp WHERE vp.version_id = v.version_id ORDER BY vp.ordinal)
    AS profile_ids
FROM connector_versions v
WHERE v.version_id = ANY($1::text[])
