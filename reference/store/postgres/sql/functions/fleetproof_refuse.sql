-- A statement that finds it must not take effect (an admission scope at its
-- limit, an unusable pinned replica, a counter already released) calls this
-- to abort itself and its transaction, naming the reason for the store to map
-- to its registry error. Statements that refuse this way can travel in one
-- round trip with the COMMIT after them: a refusal skips the COMMIT.
CREATE OR REPLACE FUNCTION fleetproof_refuse(reason text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'FP001', MESSAGE = reason;
END
$$;
