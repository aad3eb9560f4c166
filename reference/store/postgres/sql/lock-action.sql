-- Serialises every resolve and settle of one action ([pinned-reserved]): an
-- exclusive transaction-scoped advisory lock on the 64-bit hash of the action
-- id. Two requests for the same action queue here; requests for different
-- actions never meet (a hash collision only adds a wait). The route row is
-- read by a later statement, whose snapshot is taken after the lock is held,
-- so it sees a route the previous holder committed.
SELECT pg_advisory_xact_lock(hashtextextended($1::text, 0))
