-- The capabilities of the visible versions of the internal view, each with
-- its canonical size and the visible versions that implement it.
SELECT vc.capability_id, d.canonical_size, array_agg(vc.version_id) AS version_ids
FROM version_capabilities vc
JOIN capability_definitions d ON d.capability_id = vc.capability_id
WHERE vc.version_id = ANY($1::text[])
GROUP BY vc.capability_id, d.canonical_size
