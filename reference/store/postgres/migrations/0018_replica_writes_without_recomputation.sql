-- What every write of a replica row, and every new route, paid for without
-- guarding anything this store's statements can break. A resolve and a
-- settlement each update their replica's row, so these costs were paid
-- twice per pair (about 5% of the server's CPU per resolve and settlement
-- in bench:pg's pairs, measured with the two schemas side by side on one
-- server).
--
-- 1. assignment_peer was a STORED generated column. PostgreSQL computes a
--    stored generated column again on every UPDATE of its row, whichever
--    columns change: seven JSON reads of the provisioned record per counter
--    update, for a value that cannot change (the record is immutable,
--    [records-replica-provision]). It is now a plain column, kept as it is,
--    and insert-replicas.sql, the only statement that inserts replicas, cuts
--    it from the record once.
-- 2. Seven CHECK constraints, each read from its stored text and planned
--    again for every statement that writes the table, are one constraint
--    with the same conditions; likewise the two of admission_counters. A
--    row that breaks any condition is still refused.
-- 3. route_assignments' foreign key to connector_replicas ran a trigger and
--    a query per new route. No statement deletes a replica or changes its
--    id, and a route is inserted by the transaction that holds its replica's
--    row lock (fleetproof_new_route), so the reference cannot dangle.
ALTER TABLE connector_replicas ALTER COLUMN assignment_peer DROP EXPRESSION;

ALTER TABLE connector_replicas
  DROP CONSTRAINT connector_replicas_status_check,
  DROP CONSTRAINT connector_replicas_capacity_check,
  DROP CONSTRAINT connector_replicas_health_revision_check,
  DROP CONSTRAINT connector_replicas_active_assignments_check,
  DROP CONSTRAINT connector_replicas_consecutive_failures_check,
  DROP CONSTRAINT connector_replicas_tiebreak_hash_check,
  DROP CONSTRAINT connector_replicas_check,
  ADD CONSTRAINT connector_replicas_valid CHECK (
    status IN ('ready', 'draining', 'offline')
    AND capacity > 0
    AND health_revision >= 0
    AND active_assignments >= 0
    AND active_assignments <= capacity
    AND consecutive_failures >= 0
    AND tiebreak_hash BETWEEN 0 AND 4294967295);

ALTER TABLE admission_counters
  DROP CONSTRAINT admission_counters_scope_kind_check,
  DROP CONSTRAINT admission_counters_active_check,
  ADD CONSTRAINT admission_counters_valid CHECK (
    scope_kind IN ('global', 'tenant', 'connector_type', 'instance', 'binding', 'tenant_retry')
    AND active >= 0);

ALTER TABLE route_assignments DROP CONSTRAINT route_assignments_replica_id_fkey;
