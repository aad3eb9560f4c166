-- The catalog revision, outside any catalog read. No lock: a single row read
-- sees the last committed publication.
SELECT revision FROM catalog_revision
