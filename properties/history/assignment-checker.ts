// Each action has at most one assignment, and it never changes: every
// answer a resolve or retry of the action returned, and the route read back
// after quiescence, name the same replica with the same fence token.
// Indeterminate attempts returned nothing and add nothing to compare.
import type { RouteView } from '../../contract/records.ts';
import { describeOp, type Op } from '../check/history.ts';

export interface ChangedAssignment {
  action: string;
  /** The distinct `replica/fence` pairs observed, in order. */
  seen: string[];
}

const identity = (v: RouteView) => `${v.assignment.replica_id}/${v.assignment.fence_token}`;

export function changedAssignments(history: readonly Op[], views: readonly RouteView[]): ChangedAssignment[] {
  const seen = new Map<string, string[]>();
  const note = (action: string, v: RouteView) => {
    const list = seen.get(action) ?? [];
    if (!list.includes(identity(v))) list.push(identity(v));
    seen.set(action, list);
  };
  for (const op of [...history].sort((a, b) => a.complete - b.complete)) if (op.type === 'ok' && op.view) note(op.action, op.view);
  for (const v of views) note(v.assignment.action_id, v);
  return [...seen].filter(([, list]) => list.length > 1).map(([action, list]) => ({ action, seen: list }));
}

export function describeChangedAssignment(c: ChangedAssignment, history: readonly Op[]): string {
  const slice = history.filter((o) => o.action === c.action).sort((a, b) => a.invoke - b.invoke);
  return `action ${c.action} was assigned ${c.seen.join(', then ')}:\n    ${slice.map(describeOp).join('\n    ')}`;
}
