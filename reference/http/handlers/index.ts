// Every operation handler, keyed by the operationId it serves.
import type { HandlerTable } from '../operation.ts';
import { administrationHandlers } from './administration.ts';
import { catalogHandlers } from './catalog.ts';
import { fleetHandlers } from './fleet.ts';
import { operationsHandlers } from './operations.ts';
import { readerHandlers } from './reader.ts';
import { routingHandlers } from './routing.ts';

export const HANDLERS: HandlerTable = {
  ...operationsHandlers,
  ...administrationHandlers,
  ...readerHandlers,
  ...catalogHandlers,
  ...routingHandlers,
  ...fleetHandlers,
};
