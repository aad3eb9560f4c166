-- Catalog publication, writer side ([revision-advances]). The exclusive form
-- of the publication lock (two-key advisory lock "FPCA" "TLOG") waits for
-- every catalog reader and writer in flight and keeps new ones out until this
-- transaction ends, so a write and its revision bump become visible together
-- and a page walk never mixes two revisions. The revision row is read in the
-- next statement, after the lock is held, so it is the latest.
SELECT pg_advisory_xact_lock(1179665217, 1414287175)
