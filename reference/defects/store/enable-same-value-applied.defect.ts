import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'enable-same-value-applied',
  clause: 'records-type-enable',
  does: 'enabling an enabled type, or disabling a disabled one, answers applied instead of unchanged',
  changes: (inner) => ({
    async setConnectorTypeEnabled(id, enabled) {
      const result = await inner.setConnectorTypeEnabled(id, enabled);
      return result.outcome === 'unchanged' ? { ...result, outcome: 'applied' } : result;
    },
  }),
});
