import type { CapabilityDefinition } from '../../../contract/records.ts';
import { digestOf } from '../../../contract/digest.ts';
import { storeDefect } from '../defect.ts';

const inputOnly = (d: CapabilityDefinition): CapabilityDefinition => ({
  ...d,
  schema_digest: digestOf({ input: d.capability.input_schema }),
});

export default storeDefect({
  name: 'schema-digest-without-output',
  clause: 'digest-capability',
  does: 'the schema_digest of a returned definition digests the input schema alone, leaving the output schema out',
  changes: (inner) => ({
    queryCatalog: async (q, ctx) => {
      const page = await inner.queryCatalog(q, ctx);
      return { ...page, capabilities: page.capabilities.map(inputOnly) };
    },
    getCapability: async (id, ctx) => {
      const found = await inner.getCapability(id, ctx);
      return found && { ...found, definition: inputOnly(found.definition) };
    },
  }),
});
