// Aimed bursts for concurrency cases (INTERPRETING.md, "Concurrency cases").
// A race between two requests is only provoked when both are inside the
// registry's gap between a check and its write at the same time, and a gap
// may be as short as one turn of its event loop. Requests sent over one
// shared pool leave one after another, as connections are opened and tokens
// minted, so whether they overlap would depend on the machine's speed. A
// burst line therefore opens one connection per request, warms each with a
// request of its own and mints the tokens first; a burst then hands every
// request to its own idle connection in one turn, so they reach the target
// together. A case repeats its burst BURST_ROUNDS times, with fresh actions
// of the same shape, because even together a burst overlaps inside one turn
// only with some probability.
import type { Pool } from 'undici';
import { burstConnections, UNREPEATABLE_REUSE_MS } from '../../client/connections.ts';
import type { RegistryClient } from './client.ts';
import type { Caller } from './tokens.ts';

/** The run's token source: a burst has it obtain every caller's credentials before it fires. */
export interface TokenSource {
  warm(caller: Caller): Promise<unknown>;
}

/** The chance a one-turn race may escape a whole case, and the least chance one round catches it. */
export const MISS_BOUND = 0.01;
export const ROUND_CATCH_FLOOR = 0.4;

/** ceil(ln(MISS_BOUND) / ln(1 - ROUND_CATCH_FLOOR)): (1 - 0.4)^9 > 0.01 ≥ (1 - 0.4)^10. */
export const BURST_ROUNDS = Math.ceil(Math.log(MISS_BOUND) / Math.log(1 - ROUND_CATCH_FLOOR));

/** How many times a burst warms its connections before it fires on them however long the warm-up took. */
const WARM_UP_ATTEMPTS = 4;

/** Gives a client of the case the burst's own connections. */
export type Via = (client: RegistryClient) => RegistryClient;

export class BurstLine {
  private constructor(
    private readonly pool: Pool,
    /** Speaks over the line's connections: warms them within the case's deadlines, stopped with the case. */
    private readonly warmer: RegistryClient,
    readonly width: number,
  ) {}

  /** Opens `width` connections to the target of `client`; the clients' tokens are minted now, not during a burst. */
  static async open(tokens: TokenSource, width: number, speakers: RegistryClient[]): Promise<BurstLine> {
    const pool = burstConnections(new URL(speakers[0]!.baseUrl).origin, width);
    const line = new BurstLine(pool, speakers[0]!.through(pool), width);
    for (const s of speakers) if (s.speaker && !('token' in s.speaker)) await tokens.warm(s.speaker as Caller);
    return line;
  }

  /**
   * Warms every connection (all in flight at once, so each takes its own
   * socket), then starts every request of `fire` in one turn; its replies in order.
   * A burst's requests are POSTs, which go on a reused connection only if its
   * previous request left less than UNREPEATABLE_REUSE_MS before
   * ([wire-connection-timeouts]): a warm-up that took longer is made again, a
   * few times at most, so no connection of the burst can be closing as idle.
   */
  async fire<T extends readonly unknown[] | []>(fire: (via: Via) => T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
    for (let attempt = 0; attempt < WARM_UP_ATTEMPTS; attempt++) {
      const warmedFrom = performance.now();
      await Promise.all(Array.from({ length: this.width }, () => this.warmer.touch()));
      if (performance.now() - warmedFrom < UNREPEATABLE_REUSE_MS) break;
    }
    const via: Via = (client) => client.through(this.pool);
    return Promise.all(fire(via));
  }

  /** Closes the connections; `abandon` drops whatever is still in flight (the case failed or timed out). */
  close(abandon = false): Promise<void> {
    return abandon ? this.pool.destroy() : this.pool.close();
  }
}

/** Runs `body` with a burst line of `width` connections, closed afterwards whatever happens. */
export async function withBurstLine<T>(
  tokens: TokenSource,
  width: number,
  speakers: RegistryClient[],
  body: (line: BurstLine) => Promise<T>,
): Promise<T> {
  const line = await BurstLine.open(tokens, width, speakers);
  try {
    const result = await body(line);
    await line.close();
    return result;
  } catch (err) {
    await line.close(true);
    throw err;
  }
}
