// A request that timed out may still take effect in the registry for a
// while (IndeterminateOutcome.mayStillActMs: as long again as its client
// waited). A burst's state is audited only once none of its requests may
// still be acting: read back sooner, a correct registry could show a
// reservation landing between the audit's reads.
import { IndeterminateOutcome } from '../check/violations.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class StillActing {
  #until = 0;

  /** Notes the outcome of one request of the burst. */
  note(err: unknown): void {
    if (IndeterminateOutcome.is(err) && err.mayStillActMs > 0) this.#until = Math.max(this.#until, performance.now() + err.mayStillActMs);
  }

  /** Resolves once no noted request may still be acting. */
  async waitOut(): Promise<void> {
    const left = this.#until - performance.now();
    if (left > 0) await sleep(left);
  }
}
