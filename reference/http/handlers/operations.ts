// The unauthenticated operations endpoints (spec.md §18).
import { ok, type HandlerTable } from '../operation.ts';

export const operationsHandlers: HandlerTable = {
  getHealth: {
    async handle() {
      return ok({ status: 'ok' });
    },
  },
  getReady: {
    async handle(_input, { store, log }) {
      // Unauthenticated callers learn only that the store is not ready; the cause goes to the log.
      try {
        return (await store.ready()) ? ok({ status: 'ready' }) : { status: 503, body: { status: 'not_ready' } };
      } catch (err) {
        log('GET /ready: the store is not ready', err);
        return { status: 503, body: { status: 'not_ready', detail: 'the store cannot serve requests' } };
      }
    },
  },
  getVersionInfo: {
    async handle(_input, { version }) {
      return ok(version);
    },
  },
  getOpenApi: {
    async handle(_input, { openApiJson }) {
      return { status: 200, text: openApiJson, contentType: 'application/json' };
    },
  },
  getMetrics: {
    async handle(_input, { store, metrics }) {
      // A failing store must not hide the request metrics; its gauges are left out instead.
      const fleet = await store.fleetStatus().catch(() => null);
      return { status: 200, text: metrics.render(fleet), contentType: 'text/plain; version=0.0.4; charset=utf-8' };
    },
  },
};
