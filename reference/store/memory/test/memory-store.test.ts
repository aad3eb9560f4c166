import { describeStoreBehaviour } from '../../test/behaviour/index.ts';
import { MemoryStore } from '../memory-store.ts';

describeStoreBehaviour('memory', async ({ clock, fenceTokens, limits }) => {
  const store = new MemoryStore({ clock: clock.now, fenceTokens, ...(limits ? { limits } : {}) });
  return { store, close: () => store.close() };
});
