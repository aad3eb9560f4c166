// The unauthenticated operations endpoints (spec.md §18).
import { ok, type HandlerTable } from '../operation.ts';

export const operationsHandlers: HandlerTable = {
  getHealth: {
    async handle() {
      return ok({ status: 'ok' });
    },
  },
  getReady: {
    async handle(_input, { store }) {
      try {
        return (await store.ready()) ? ok({ status: 'ready' }) : { status: 503, body: { status: 'not_ready' } };
      } catch (err) {
        return { status: 503, body: { status: 'not_ready', detail: (err as Error).message ?? String(err) } };
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
