// Deadlines shared by many calls: every iteration of a scenario ends at the
// scenario's hard end, so one timer per distinct deadline interrupts them
// all, instead of a timer set and cleared for each of thousands of
// iterations a second.

interface DeadlineGroup {
  timer: NodeJS.Timeout;
  waiters: Set<() => void>;
}

export class SharedDeadlines {
  private readonly groups = new Map<number, DeadlineGroup>();

  constructor(private readonly now: () => number) {}

  /** `work`'s result, or 'interrupted' once the clock passes `deadlineMs` first. */
  race<T>(work: Promise<T>, deadlineMs: number): Promise<T | 'interrupted'> {
    const group = this.groupOf(deadlineMs);
    return new Promise((resolve, reject) => {
      const interrupt = () => resolve('interrupted');
      group.waiters.add(interrupt);
      work.then(
        (value) => {
          group.waiters.delete(interrupt);
          resolve(value);
        },
        (err: unknown) => {
          group.waiters.delete(interrupt);
          reject(err);
        },
      );
    });
  }

  /**
   * Interrupts now every call racing any deadline, whose timer may not have
   * fired yet (the test ends at once: a VU made a call it cannot run).
   */
  expireAll(): void {
    const groups = [...this.groups.values()];
    this.clear();
    for (const group of groups) for (const interrupt of group.waiters) interrupt();
  }

  /** Stops every timer; calls still waiting are never interrupted. */
  clear(): void {
    for (const g of this.groups.values()) clearTimeout(g.timer);
    this.groups.clear();
  }

  private groupOf(deadlineMs: number): DeadlineGroup {
    let group = this.groups.get(deadlineMs);
    if (!group) {
      const waiters = new Set<() => void>();
      const timer = setTimeout(
        () => {
          this.groups.delete(deadlineMs);
          for (const interrupt of waiters) interrupt();
        },
        Math.max(0, deadlineMs - this.now()),
      );
      // The calls it races keep the process busy; the timer alone must not.
      timer.unref();
      group = { timer, waiters };
      this.groups.set(deadlineMs, group);
    }
    return group;
  }
}
