// fast-check's interruptAfterTimeLimit races the run in progress against the
// limit and returns without waiting for it: the run goes on in the
// background, and its writes land while the next suite or faults round seeds
// and compares, where a model that counts the catalog revision exactly takes
// them for the registry's and fails a correct registry. So each check counts
// its runs here; once it returns, a run still going stops before its next
// command and the runner waits for it (its call in flight ends within its
// exchange deadline) before anything else meets the registry.

/** Thrown into a run left behind by its check, before the command it would have sent. */
export class RunLeftBehind extends Error {
  constructor() {
    super('the check returned while this run went on: it stopped before its next command');
    this.name = 'RunLeftBehind';
  }
}

export class RunsInFlight {
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  /** True once the check has returned: a run still going sends nothing more. */
  get stopping(): boolean {
    return this.stopped;
  }

  /** `body`, each of its runs counted until it ends. */
  count<A extends unknown[]>(body: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
    return (...args) => {
      const run = body(...args);
      this.running.add(run);
      const forget = () => void this.running.delete(run);
      run.then(forget, forget);
      return run;
    };
  }

  /** Stops the runs still going and waits for them; how many there were. */
  async settle(): Promise<number> {
    this.stopped = true;
    const left = [...this.running];
    await Promise.allSettled(left);
    return left.length;
  }
}
