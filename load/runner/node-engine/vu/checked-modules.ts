// The VU thread's modules are loaded by path (new Worker, the staged script),
// never imported, so nothing would bring them into the type-checked program;
// these type-only re-exports do.
export type * as K6 from './k6.js';
export type * as K6Http from './k6-http.js';
export type * as K6Metrics from './k6-metrics.js';
export type * as K6Execution from './k6-execution.js';
export type * as K6Data from './k6-data.js';
export type * as K6Crypto from './k6-crypto.js';
export type * as K6Timers from './k6-timers.js';
export type * as Worker from './vu-worker.js';
