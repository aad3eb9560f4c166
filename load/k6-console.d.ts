// The console k6 gives scripts (log, info, warn, error, debug), which
// @types/k6 leaves to the "dom" library; only these methods exist in k6.
declare global {
  const console: {
    log(...args: unknown[]): void;
    info(...args: unknown[]): void;
    warn(...args: unknown[]): void;
    error(...args: unknown[]): void;
    debug(...args: unknown[]): void;
  };
}
export {};
