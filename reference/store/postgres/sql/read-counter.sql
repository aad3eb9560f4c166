-- One admission counter ([admission-counter-read]). No lock.
SELECT active FROM admission_counters WHERE scope_kind = $1 AND scope_key = $2
