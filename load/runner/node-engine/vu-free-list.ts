// The bookkeeping both kinds of VU share: VU threads (vu-pool.ts) and async
// VUs (local-vus.ts). Every VU a pool makes is kept in `all`, for stopping
// and counting; the free ones wait in a stack for a scenario to take them,
// and a VU that stopped is never handed out again. Ids come from a counter
// the pools of one test share, so no two VUs of a test have one id.

/** What a pool needs of a VU, whichever kind it is. */
export interface PooledVu {
  readonly alive: boolean;
  /** Running a call or an iteration. */
  readonly running: boolean;
  stop(): Promise<void>;
}

export abstract class VuFreeList<V extends PooledVu> {
  protected readonly free: V[] = [];
  readonly all: V[] = [];

  constructor(private readonly ids: { next: number }) {}

  /** A new VU of this pool's kind, with that id. */
  protected abstract make(id: number): V;

  protected spawn(): V {
    const vu = this.make(this.ids.next++);
    this.all.push(vu);
    return vu;
  }

  /** A free VU, or null; never waits. */
  take(): V | null {
    while (this.free.length > 0) {
      const vu = this.free.pop()!;
      if (vu.alive) return vu;
    }
    return null;
  }

  give(vu: V): void {
    if (vu.alive) this.free.push(vu);
  }

  get initialized(): number {
    return this.all.filter((v) => v.alive).length;
  }

  get active(): number {
    return this.all.filter((v) => v.alive && v.running).length;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.all.map((v) => v.stop()));
  }
}
