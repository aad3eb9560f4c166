// Resolve an action again, as its own tenant and capability ([pinned-*]). Pinned
// routes are judged on the registry's answers alone: a success returns the
// first assignment field for field, whatever changed since; a pinned replica
// that cannot take the retry is REPLICA_UNAVAILABLE naming the pinned
// instance, never another route. A topology preference changes nothing
// ([route-topology-new-only]).
import fc from 'fast-check';
import type { ResolveRequest } from '../../../contract/records.ts';
import { expectProperty } from '../../check/violations.ts';
import type { RunContext } from '../../targets/target.ts';
import { expectOwnRoute, observe, predict, RegistryCommand, takeBranch } from '../command-support.ts';
import { differences, sameJson } from '../json.ts';
import type { RegistryModel } from '../registry-model.ts';
import { resolveExisting } from '../rules/routing.ts';
import type { ActionKey } from '../../targets/universe.ts';
import { describeTopology, preferenceOf, TOPOLOGY_CHOICES, type TopologyChoice } from './topology-choice.ts';
import { actionChoice } from './choices.ts';

export class ReResolveActionCommand extends RegistryCommand {
  constructor(
    readonly action: ActionKey,
    readonly topology: TopologyChoice,
  ) {
    super();
  }

  check(m: Readonly<RegistryModel>): boolean {
    return m.s.routes[m.u.action(this.action)] !== undefined;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const first = m.s.routes[m.u.action(this.action)]!.assignment;
    const req: ResolveRequest = { action_id: first.action_id, capability_id: first.capability_id, ...preferenceOf(this.topology) };
    const { obs, window } = await observe(run, () => run.store.resolve(first.tenant_id, req));
    if (obs.ok) {
      expectOwnRoute(this.toString(), first.tenant_id, obs.value.assignment.tenant_id);
      const changed = differences(obs.value.assignment, first);
      expectProperty(
        'pinned-routes',
        changed.length === 0,
        () => `${this}: the assignment differs from the first one at:\n${changed.map((d) => `  ${d}`).join('\n')}`,
      );
    } else if (obs.error.code === 'REPLICA_UNAVAILABLE') {
      const named = obs.error.details?.['instance_id'];
      expectProperty(
        'pinned-routes',
        named === first.instance_id,
        () => `${this}: REPLICA_UNAVAILABLE names instance ${String(named)}, the action is pinned to ${first.instance_id}`,
      );
    }
    const branches = predict(m.s, window, (s, now) => resolveExisting(s, first.tenant_id, req, now));
    m.s = takeBranch(this.toString(), branches, obs, (p, v) => sameJson(p, v)).state;
  }

  toString(): string {
    return `re-resolve ${this.action}${describeTopology(this.topology)}`;
  }
}

export const reResolveActionCommand = () =>
  fc.tuple(actionChoice(), fc.constantFrom(...TOPOLOGY_CHOICES)).map(([action, topology]) => new ReResolveActionCommand(action, topology));
