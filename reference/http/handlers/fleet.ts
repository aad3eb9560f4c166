// Fleet maintenance and status (spec.md §15–§16).
import { ok, type HandlerTable } from '../operation.ts';

export const fleetHandlers: HandlerTable = {
  getFleetStatus: {
    async handle(_input, { store }) {
      return ok(await store.fleetStatus());
    },
  },
  expireLeases: {
    async handle({ body }, { store }) {
      return ok(await store.expireLeases((body as { limit: number }).limit));
    },
  },
};
