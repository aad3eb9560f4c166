// The memory a VU thread shares with the main thread, cell by cell. The
// main thread hands a scenario's iterations to a VU by writing these cells
// and waking the VU's thread with Atomics.notify, and sees an iteration end
// by reading them. Starting an iteration costs no message, and ending one
// costs none while the main thread has promised to look anyway (an
// arrival-rate scenario's loop, turning every few milliseconds): at
// thousands of iterations a second, a message and an event-loop wake-up
// each way had cost both threads more than the iteration itself. Everything
// else (setup, teardown, handleSummary, an iteration that threw, samples in
// batches) still travels as messages.

/** Int32 cells. */
export const CELL = {
  /** Raised by the main thread when a reply to callMain is ready (sync-bridge.js). */
  REPLY: 0,
  /** Raised when the runner interrupts the VU. */
  INTERRUPT: 1,
  /** Bumped by the main thread for every command, assigned iteration or message; the VU waits on it. */
  SIGNAL: 2,
  /** IDLE, RUNNING (an iteration is assigned), DONE (it ended without an error). */
  STATE: 3,
  /** Which bound scenario the iteration belongs to. */
  BIND: 4,
  /** __ITER: the VU's iterations in this scenario before this one. */
  ITERATION_IN_SCENARIO: 5,
  /** The VU's iterations in the whole test, this one included. */
  VU_ITERATION: 6,
  /** The scenario's iteration number in this instance, and in the whole test. */
  SCENARIO_ITERATION: 7,
  ITERATION_IN_TEST: 8,
};

/** Float64 cells (indices of a Float64Array over the same memory). */
export const FLOAT = {
  /** exec.scenario.progress at the iteration's start. */
  PROGRESS: 5,
  /** How long the iteration ran, in milliseconds. */
  MS: 6,
};

export const IDLE = 0;
export const RUNNING = 1;
export const DONE = 2;

export const CELLS_BYTES = 64;

/**
 * The pool's shared clock cell: until when (milliseconds after the pool's
 * base time) the main thread has promised to look at every VU's cells on
 * its own. A VU that ends an iteration before then posts nothing; after,
 * it posts a wake-up message.
 */
export const POLLED_UNTIL = 0;
