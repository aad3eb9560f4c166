// A distributed run's parts as one: their journals joined, and the audits
// the parts ran themselves (parts written by a single `fleetproof load`)
// combined, an invariant holding only where it held in every part.
import type { AuditResult, InvariantResult } from '../runner/audit.ts';
import { emptyJournal, type Journal, type LatencyFact, type PhaseTiming } from '../runner/journal.ts';
import type { RunPart } from './run-part.ts';

/** Every part's journal as one: routes, observations and raw latencies together; each phase timed by its longest part. */
export function mergeJournals(journals: Journal[]): Journal {
  const j = emptyJournal();
  const latencies = new Map<string, LatencyFact>();
  const phases = new Map<string, PhaseTiming>();
  journals.forEach((part, k) => {
    for (const [id, r] of part.routes) if (!j.routes.has(id)) j.routes.set(id, r);
    j.replicaObservations.push(...part.replicaObservations);
    j.indeterminate.push(...part.indeterminate);
    j.unjudged.push(...part.unjudged);
    j.attempts.push(...part.attempts);
    part.settled.forEach((id) => j.settled.add(id));
    part.refused.forEach((id) => j.refused.add(id));
    part.offline.forEach((id) => j.offline.add(id));
    part.mayGoOffline.forEach((id) => j.mayGoOffline.add(id));
    part.created.forEach((id) => j.created.add(id));
    for (const l of part.latencies) {
      const key = `${l.phase}\u001f${l.operation}`;
      const into = latencies.get(key) ?? { phase: l.phase, operation: l.operation, ms: [] };
      into.ms.push(...l.ms);
      latencies.set(key, into);
    }
    for (const p of part.phases) {
      const before = phases.get(p.phase);
      if (!before || p.ms > before.ms) phases.set(p.phase, p);
    }
    j.messages.push(...part.messages.map((m) => (journals.length > 1 ? `[part ${k + 1}] ${m}` : m)));
    j.malformed += part.malformed;
  });
  j.latencies = [...latencies.values()];
  j.phases = [...phases.values()];
  return j;
}

/** The parts' audits as one: an invariant holds only where it held in every audited part. */
export function mergeAudits(parts: RunPart[]): AuditResult | null {
  const audited = parts
    .map((p, k) => ({ k, audit: p.report?.audit ?? null }))
    .filter((x): x is { k: number; audit: AuditResult } => x.audit !== null);
  if (audited.length === 0) return null;
  const invariants = new Map<string, InvariantResult>();
  const errors: string[] = [];
  for (const { k, audit } of audited) {
    const tag = parts.length > 1 ? `part ${k + 1}: ` : '';
    for (const i of audit.invariants) {
      const into = invariants.get(i.id) ?? { ...i, ok: true, checked: 0, violations: 0, examples: [] };
      into.ok &&= i.ok;
      into.checked += i.checked;
      into.violations += i.violations;
      into.examples.push(...i.examples.slice(0, 5).map((x) => tag + x));
      invariants.set(i.id, into);
    }
    errors.push(...audit.errors.map((e) => tag + e));
  }
  const list = [...invariants.values()];
  return { ok: errors.length === 0 && list.every((i) => i.ok), invariants: list, errors };
}
