-- Catalog publication, reader side ([page-revision]). The shared form lets
-- readers and new routes run together while excluding writers, so every
-- statement after it in the transaction sees one publication. The revision
-- row must be read by a later statement: this statement's snapshot predates
-- any wait for the lock.
SELECT pg_advisory_xact_lock_shared(1179665217, 1414287175)
