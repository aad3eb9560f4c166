// Read an action's route ([assignment-read], [auth-route-isolation]): its own
// tenant sees the stored assignment unchanged with its reservation state; the
// other tenant sees nothing, exactly as for an action never routed.
import fc from 'fast-check';
import { expectProperty } from '../../check/violations.ts';
import type { RunContext } from '../../targets/target.ts';
import { describeObservation, observe, RegistryCommand } from '../command-support.ts';
import { differences } from '../json.ts';
import type { RegistryModel } from '../registry-model.ts';
import { TENANTS, type ActionKey, type TenantKey } from '../../targets/universe.ts';
import { diverged } from '../../check/violations.ts';
import { actionChoice } from './choices.ts';

export class ReadRouteCommand extends RegistryCommand {
  constructor(
    readonly action: ActionKey,
    readonly reader: TenantKey,
  ) {
    super();
  }

  check(m: Readonly<RegistryModel>): boolean {
    return m.s.routes[m.u.action(this.action)] !== undefined;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const route = m.s.routes[m.u.action(this.action)]!;
    const reader = m.u.tenant(this.reader);
    const { obs } = await observe(run, () => run.store.route(reader, route.assignment.action_id));
    if (!obs.ok) return diverged(`${this}: answered ${describeObservation(obs)}`);
    const view = obs.value;
    if (reader !== route.assignment.tenant_id) {
      expectProperty(
        'tenant-isolation',
        view === null,
        () => `${this}: tenant ${reader} was shown the route of tenant ${route.assignment.tenant_id}`,
      );
      return;
    }
    if (view === null) return diverged(`${this}: the route is missing`);
    const changed = differences(view.assignment, route.assignment);
    expectProperty(
      'pinned-routes',
      changed.length === 0,
      () => `${this}: the stored assignment changed at:\n${changed.map((d) => `  ${d}`).join('\n')}`,
    );
  }

  toString(): string {
    return `read the route of ${this.action} as tenant-${this.reader}`;
  }
}

export const readRouteCommand = () => fc.tuple(actionChoice(), fc.constantFrom(...TENANTS)).map(([a, t]) => new ReadRouteCommand(a, t));
