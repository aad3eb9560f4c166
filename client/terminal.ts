// What the harness's parts print on a terminal, in one look: counts with the
// right word form, a progress bar with the time left at the pace so far, and
// a block of lines redrawn in place.

/** `1 case`, `2 cases`. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `[=======>------------]` for a share from 0 to 1. */
export function bar(share: number, width = 20): string {
  const filled = Math.round(Math.min(1, Math.max(0, share)) * width);
  return `[${'='.repeat(Math.max(0, filled - 1))}${filled > 0 ? (filled === width ? '=' : '>') : ''}${'-'.repeat(width - filled)}]`;
}

/** 75 → `1m15s`, 9.4 → `9s`. */
export function seconds(s: number): string {
  const whole = Math.max(0, Math.round(s));
  return whole >= 60 ? `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s` : `${whole}s`;
}

/** `ETA 1m15s` from the pace so far, or nothing before there is a pace or after the end. */
export function eta(elapsedMs: number, share: number): string {
  if (share <= 0 || share >= 1 || elapsedMs <= 0) return '';
  return `ETA ${seconds(((elapsedMs / share) * (1 - share)) / 1000)}`;
}

interface Stream {
  write(text: string): unknown;
  columns?: number;
}

/**
 * Lines rewritten in place on a terminal: each draw moves back over the lines
 * the last one wrote, so a block of one line per scenario stays one block.
 * `above` prints lines that stay (a failure) above the block.
 */
export function liveBlock(stream: Stream): { draw(lines: string[]): void; above(lines: string[]): void; end(): void } {
  let shown = 0;
  const clear = () => {
    if (shown > 1) stream.write(`\x1b[${shown - 1}A`);
    stream.write('\r\x1b[J');
    shown = 0;
  };
  let last: string[] = [];
  const draw = (lines: string[]) => {
    clear();
    // A line wider than the terminal wraps, and the next draw would move back over too few lines.
    const width = (stream.columns ?? 0) > 1 ? stream.columns! - 1 : Infinity;
    stream.write(lines.map((l) => (l.length > width ? l.slice(0, width) : l)).join('\n'));
    shown = lines.length;
    last = lines;
  };
  return {
    draw,
    above(lines) {
      clear();
      stream.write(lines.join('\n') + '\n');
      draw(last);
    },
    end() {
      if (shown > 0) stream.write('\n');
      shown = 0;
      last = [];
    },
  };
}

/** How often a status line is redrawn while nothing happens, so its clock and time left move. */
const REDRAW_MS = 500;

export interface StatusLine {
  /** Whether the line is drawn at all: on a terminal only. */
  readonly tty: boolean;
  start(): void;
  redraw(): void;
  /** Lines that stay: above the status line on a terminal, as they are elsewhere. */
  above(lines: string[]): void;
  /** The last draw, left in place; nothing redraws after it. */
  end(): void;
}

/**
 * One status line a stage keeps redrawn in place on a terminal, with the
 * lines worth keeping (a failure) printed above it. Without a terminal there
 * is no status line: the stage prints what it wants in the log itself.
 */
export function statusLine(stream: Stream & { isTTY?: boolean }, line: () => string, tty = Boolean(stream.isTTY)): StatusLine {
  const block = liveBlock(stream);
  let ticker: NodeJS.Timeout | undefined;
  const redraw = () => {
    if (tty) block.draw([line()]);
  };
  return {
    tty,
    start() {
      if (!tty) return;
      clearInterval(ticker);
      ticker = setInterval(redraw, REDRAW_MS).unref();
      redraw();
    },
    redraw,
    above(lines) {
      if (tty) block.above(lines);
      else stream.write(lines.join('\n') + '\n');
    },
    end() {
      clearInterval(ticker);
      ticker = undefined;
      if (!tty) return;
      redraw();
      block.end();
    },
  };
}
