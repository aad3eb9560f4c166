// A store with some of its methods replaced: every other property is the
// inner store's, its methods bound to it, so the decorated store behaves
// exactly as the inner one except where a defect says otherwise.
import type { RegistryPort } from '../../../contract/target-port.ts';
import type { RegistryStore } from '../../store/registry-store.ts';

export function decorate(inner: RegistryStore, changes: Partial<RegistryPort>): RegistryStore {
  const changed = changes as Record<string | symbol, unknown>;
  return new Proxy(inner, {
    get(target, prop) {
      if (Object.hasOwn(changed, prop)) return changed[prop];
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
