-- Two roles split the registry's privileges (spec: a data-plane process holds
-- no catalog credentials). They are NOLOGIN groups: a deployment grants them
-- to its login users, and a store opened with one owner URL assumes them per
-- pool. Roles are cluster-wide while grants are per database, so several
-- registry databases on one server share the two roles; a concurrent first
-- creation by another database's migration is not an error.
DO $$
BEGIN
  CREATE ROLE fleetproof_control NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL;
END
$$;
DO $$
BEGIN
  CREATE ROLE fleetproof_data NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL;
END
$$;

GRANT USAGE ON SCHEMA public TO fleetproof_control, fleetproof_data;

-- control: catalog and admission policy writes, and the revision they publish.
GRANT SELECT ON ALL TABLES IN SCHEMA public TO fleetproof_control;
GRANT INSERT, UPDATE ON catalog_revision, connector_types, connector_versions, capability_definitions,
  version_capabilities, version_profiles, connector_instances, admission_policies, capability_bindings
  TO fleetproof_control;

-- data: catalog reads, replica lifecycle, routing, reservations and fleet
-- status. No write on any catalog table.
GRANT SELECT ON ALL TABLES IN SCHEMA public TO fleetproof_data;
GRANT INSERT, UPDATE ON connector_replicas, admission_counters TO fleetproof_data;
-- DELETE is used only by the deliberate `reselect-on-retry` fault.
GRANT INSERT, UPDATE, DELETE ON route_assignments TO fleetproof_data;
