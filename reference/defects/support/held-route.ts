// The route an action holds without a reservation: what a resolve of it
// retries ([pinned-reacquire]).
import type { RouteView } from '../../../contract/records.ts';
import type { RegistryPort } from '../../../contract/target-port.ts';

export async function releasedRoute(inner: RegistryPort, tenantId: string, actionId: string): Promise<RouteView | null> {
  const view = await inner.route(tenantId, actionId);
  return view && !view.reserved ? view : null;
}
