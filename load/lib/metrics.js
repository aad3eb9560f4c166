// The custom metrics of the scale scripts. Every sample carries the `phase`
// tag (scenario tags, or explicit tags in setup), so thresholds and the
// report can filter by phase.
import { Counter, Gauge, Trend } from 'k6/metrics';

/** Wall time of seeding the dataset through the batch API. */
export const seedDuration = new Trend('fleetproof_seed_duration', true);
/** Routes per second of one concurrent routing batch (count / wall time). */
export const routeThroughput = new Trend('fleetproof_route_throughput');
/** Responses whose status or error code the phase does not allow. */
export const unexpectedResponses = new Counter('fleetproof_unexpected_responses');
/** Indeterminate answers (no answer, STORAGE_UNAVAILABLE) a phase did not allow: no failure by themselves ([failure-indeterminate]). */
export const indeterminateResponses = new Counter('fleetproof_indeterminate_responses');
/** Milliseconds the flows waited before sending requests again (an answer that left the outcome open, a contention refusal): the harness's time, not the registry's. */
export const resendWaits = new Counter('fleetproof_resend_wait_ms');
/** Resolves still refused with REPLICA_UNAVAILABLE after their retries, where a phase expected another answer ([route-contention]). */
export const contentionRefusals = new Counter('fleetproof_contention_refusals');
/** CAPACITY_EXCEEDED refusals, by scope: expected where a phase provokes them. */
export const capacityRefusals = new Counter('fleetproof_capacity_refusals');
/** Routes created (first resolve of an action). */
export const routesCreated = new Counter('fleetproof_routes_created');
/** max − min assignments per eligible replica in the concurrent routing batch. */
export const routeSpread = new Gauge('fleetproof_route_spread');
/** Replicas lease expiry took offline. */
export const expiredReplicas = new Counter('fleetproof_expired_replicas');
