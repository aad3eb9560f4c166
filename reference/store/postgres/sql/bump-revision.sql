-- Advances the catalog revision in the writer's transaction, under the
-- exclusive publication lock ([revision-advances]), by the registry's step ($2).
UPDATE catalog_revision SET revision = revision + $2::bigint, published_at_ms = $1 RETURNING revision
