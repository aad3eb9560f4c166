// Turns for the resolves of one tenant and capability, within one store
// process ([route-contention]). When a new route's replica was the only
// candidate with room in its priority (fleetproof_take_replica's `alone`),
// the next resolves of that tenant and capability could only queue on that
// replica's row lock in the database, each holding a connection it cannot
// use while the lock is handed from backend to backend. They take their turn
// here instead, one at a time, and the pool's other connections stay free
// for other tenants. Nothing is decided here: the database still takes every
// replica under its lock, so processes sharing one database stay correct,
// and a resolve that finds more candidates opens the line again.
//
// The requests of one line are those that meet the same candidates: one
// tenant and capability with one required capacity class and region
// (route-selection.ts, turnKey). A resolve that found no replica, or failed,
// opens the line too; a resolve answered from a stored route says nothing.
//
// The wait for a turn is bounded with the connection queue's figures
// ([failure-overload]): at most `size` resolves wait for a turn in the
// process, each at most `waitMs`, before they wait for a connection; beyond
// either, the overload answer. A queue of size 0 (refuse whatever cannot have
// a connection at once) takes no turns.
import type { ConnectionQueue } from './connection-queue.ts';
import { overloaded } from './database.ts';

interface Line {
  running: number;
  waiting: Array<() => void>;
}

/** Lines last seen alone, at most this many (the oldest forgotten first). */
const REMEMBERED = 65_536;

export class ResolveTurns {
  private readonly lines = new Map<string, Line>();
  private readonly alone = new Set<string>();
  private waiting = 0;

  constructor(private readonly queue: ConnectionQueue) {}

  /** Runs `body` when its turn comes: at once, unless `key`'s replica stood alone and a resolve of it runs. */
  async take<T>(key: string, body: () => Promise<T>): Promise<T> {
    // A queue of size 0 refuses only when no connection is free: no resolve waits here then.
    if (this.queue.size === 0) return body();
    let line = this.lines.get(key);
    if (!line) {
      line = { running: 0, waiting: [] };
      this.lines.set(key, line);
    }
    // A finished resolve hands its turn over, so no newcomer slips in between.
    if (line.running > 0 && this.alone.has(key)) await this.wait(line);
    else line.running++;
    try {
      return await body();
    } finally {
      line.running--;
      const width = this.alone.has(key) ? 1 : Infinity;
      while (line.waiting.length > 0 && line.running < width) {
        line.running++;
        line.waiting.shift()!();
      }
      if (line.running === 0) this.lines.delete(key);
    }
  }

  /** What a new route of `key` reported (fleetproof_resolve's alone). */
  learn(key: string, alone: boolean): void {
    this.alone.delete(key);
    if (!alone) return;
    this.alone.add(key);
    if (this.alone.size > REMEMBERED) this.alone.delete(this.alone.values().next().value!);
  }

  private wait(line: Line): Promise<void> {
    if (this.waiting >= this.queue.size) {
      return Promise.reject(overloaded(`${this.waiting} resolves already wait for their turn`));
    }
    this.waiting++;
    return new Promise<void>((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        this.waiting--;
        resolve();
      };
      const timer = setTimeout(() => {
        line.waiting.splice(line.waiting.indexOf(turn), 1);
        this.waiting--;
        reject(overloaded('no turn came in time'));
      }, this.queue.waitMs);
      line.waiting.push(turn);
    });
  }
}
