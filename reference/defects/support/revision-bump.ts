// A catalog write nobody asked for: a connector type of the defect's own,
// created once and then toggled, so each bump really advances the catalog
// revision the way a stray write would.
import type { RegistryPort } from '../../../contract/target-port.ts';

export function revisionBumper(inner: RegistryPort, owner: string): () => Promise<void> {
  const id = `ctype_${owner.replaceAll('-', '_')}`;
  let enabled: boolean | null = null;
  return async () => {
    if (enabled === null) {
      const stored = await inner.getConnectorType(id);
      if (!stored) await inner.putConnectorType({ id, name: owner, owner, enabled: true });
      enabled = stored?.enabled ?? true;
    }
    enabled = !enabled;
    await inner.setConnectorTypeEnabled(id, enabled);
  };
}
