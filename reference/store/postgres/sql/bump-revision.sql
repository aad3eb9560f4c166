-- Advances the catalog revision in the writer's transaction, under the
-- exclusive publication lock ([revision-advances]).
UPDATE catalog_revision SET revision = revision + 1, published_at_ms = $1 RETURNING revision
