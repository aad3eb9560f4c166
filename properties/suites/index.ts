// Every property suite, in the order reports list them.
import { circuitBehaviourSuite } from './circuit-behaviour.suite.ts';
import { idempotentSettlementSuite } from './idempotent-settlement.suite.ts';
import { modelAgreementSuite } from './model-agreement.suite.ts';
import { noOverbookingSuite } from './no-overbooking.suite.ts';
import { pinnedRoutesSuite } from './pinned-routes.suite.ts';
import { sharedActionsSuite } from './shared-actions.suite.ts';
import { staleCursorSuite } from './stale-cursor.suite.ts';
import type { SuiteDefinition, SuiteName } from './suite.ts';
import { tenantIsolationSuite } from './tenant-isolation.suite.ts';

export const SUITES: Record<SuiteName, SuiteDefinition> = {
  'pinned-routes': pinnedRoutesSuite,
  'idempotent-settlement': idempotentSettlementSuite,
  'stale-cursor': staleCursorSuite,
  'no-overbooking': noOverbookingSuite,
  'tenant-isolation': tenantIsolationSuite,
  'circuit-behaviour': circuitBehaviourSuite,
  'model-agreement': modelAgreementSuite,
  'shared-actions': sharedActionsSuite,
};

export { SUITE_NAMES, isSuiteName, type SuiteName } from './suite.ts';
