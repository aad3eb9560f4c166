// A store with some of its members replaced: the tests' way of building a
// registry that breaks one rule (declares limits it does not enforce,
// miscounts, reads another clock) while every other member stays the
// reference's own.
import type { RegistryStore } from '../../reference/store/registry-store.ts';

export function overriding<S extends RegistryStore>(inner: S, overrides: Partial<Record<keyof S, unknown>>): RegistryStore {
  return new Proxy(inner, {
    get(target, prop) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof S];
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
