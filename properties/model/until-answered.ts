// Writes the harness makes outside any judged history — seeding a run's
// fleet, preparing a burst, retiring what a run holds — are requests the
// contract makes safe to repeat (the same records, the same revisions, the
// same assignment). Under faults such a write is sent again until the
// registry answers it, within a bound; if it never does, the outcome stays
// indeterminate and the run cannot be judged.
import { IndeterminateOutcome, NotForwarded } from '../check/violations.ts';
import type { RunContext } from '../targets/target.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `resent` says an earlier attempt may have taken effect, so "unchanged" answers are the retry's, not a refusal. */
export async function untilAnswered<T>(
  run: Pick<RunContext, 'resendUnansweredMs' | 'calledOff'>,
  call: () => Promise<T>,
): Promise<{ value: T; resent: boolean }> {
  const limitMs = run.resendUnansweredMs ?? 0;
  const started = performance.now();
  for (let attempt = 0, backoff = 100; ; attempt++, backoff = Math.min(backoff * 2, 2000)) {
    try {
      return { value: await call(), resent: attempt > 0 };
    } catch (err) {
      const unanswered = IndeterminateOutcome.is(err) || NotForwarded.is(err);
      if (!unanswered || run.calledOff?.aborted || performance.now() - started + backoff > limitMs) throw err;
      await sleep(backoff);
    }
  }
}
