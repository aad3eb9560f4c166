import { describeStoreBehaviour } from '../behaviour/index.ts';
import { MemoryStore } from './memory-store.ts';

describeStoreBehaviour('memory', async ({ clock, fenceTokens }) => {
  const store = new MemoryStore({ clock: clock.now, fenceTokens });
  return { store, close: () => store.close() };
});
