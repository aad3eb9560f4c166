-- The guards on the rows every resolve and settlement writes, as domains
-- wherever a guard concerns one column.
--
-- PostgreSQL reads a table's CHECK constraints from their stored text and
-- plans them again for every statement that writes the table, and tests
-- them on every row written, whichever columns changed. After migration
-- 0018 made them one constraint per table, a profile of the server during
-- bench:pg's pairs (perf record --call-graph dwarf on the postgres
-- processes) still put 4.8% of its CPU in ExecConstraints, most of it
-- reading that text back: a resolve and a settlement each update their
-- replica's row. A domain's constraint is planned once per session and
-- tested only where a value is assigned to a column of that domain: a
-- counter update tests its counters, not the status, capacity or
-- tiebreak hash it leaves as they were.
--
-- What a row may hold is unchanged: every condition of the constraints
-- dropped here holds as a domain (the same SQLSTATE, 23514, on a
-- violation), and the one condition that joins two columns stays a table
-- constraint, small enough to cost little. Clients see the base types:
-- PostgreSQL describes a domain column by its base type.
CREATE DOMAIN fleetproof_replica_status AS text CHECK (VALUE IN ('ready', 'draining', 'offline'));
CREATE DOMAIN fleetproof_positive AS bigint CHECK (VALUE > 0);
CREATE DOMAIN fleetproof_count AS bigint CHECK (VALUE >= 0);
CREATE DOMAIN fleetproof_tiebreak_hash AS bigint CHECK (VALUE BETWEEN 0 AND 4294967295);
CREATE DOMAIN fleetproof_settlement AS text
  CHECK (VALUE IN ('completed', 'outcome_unknown', 'cancelled', 'lease_expired'));
CREATE DOMAIN fleetproof_scope_kind AS text COLLATE "C"
  CHECK (VALUE IN ('global', 'tenant', 'connector_type', 'instance', 'binding', 'tenant_retry'));

ALTER TABLE connector_replicas
  DROP CONSTRAINT connector_replicas_valid,
  ALTER COLUMN status TYPE fleetproof_replica_status,
  ALTER COLUMN capacity TYPE fleetproof_positive,
  ALTER COLUMN health_revision TYPE fleetproof_count,
  ALTER COLUMN active_assignments TYPE fleetproof_count,
  ALTER COLUMN consecutive_failures TYPE fleetproof_count,
  ALTER COLUMN tiebreak_hash TYPE fleetproof_tiebreak_hash,
  ADD CONSTRAINT connector_replicas_within_capacity CHECK (active_assignments <= capacity);

ALTER TABLE route_assignments
  DROP CONSTRAINT route_assignments_last_settlement_check,
  ALTER COLUMN last_settlement TYPE fleetproof_settlement;

ALTER TABLE admission_counters
  DROP CONSTRAINT admission_counters_valid,
  ALTER COLUMN scope_kind TYPE fleetproof_scope_kind,
  ALTER COLUMN active TYPE fleetproof_count;
