// The k6 modules are loaded by path (the staged script imports them,
// stage-script.ts), never by the runner's own code, so nothing would bring
// them into the type-checked program; these type-only re-exports do.
export type * as K6 from './k6.js';
export type * as K6Http from './k6-http.js';
export type * as K6Metrics from './k6-metrics.js';
export type * as K6Execution from './k6-execution.js';
export type * as K6Data from './k6-data.js';
export type * as K6Crypto from './k6-crypto.js';
export type * as K6Timers from './k6-timers.js';
