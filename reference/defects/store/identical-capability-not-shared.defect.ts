import { conflict } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'identical-capability-not-shared',
  clause: 'records-capability-contract',
  does: 'a new version declaring a capability an earlier version declared, identical or not, is CONFLICT',
  changes: (inner) => {
    const declared = new Map<string, string>();
    return {
      async admitVersion(record) {
        const taken = record.manifest.capabilities.find((c) => (declared.get(c.id) ?? record.id) !== record.id);
        if (taken) throw conflict(`capability ${taken.id} belongs to another version`);
        const result = await inner.admitVersion(record);
        for (const c of record.manifest.capabilities) if (!declared.has(c.id)) declared.set(c.id, record.id);
        return result;
      },
    };
  },
});
