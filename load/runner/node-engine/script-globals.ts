// k6's globals in the runner's own thread, where every VU lives
// (virtual-users.ts): __ENV, __VU, __ITER, open() and the console. Several
// tests may run there at once, one after another or side by side (the
// parts of a distributed run in one process), so each global answers for
// the code that reads it: current() is the VU or the init context running,
// and its script context is its test's. They are installed while any
// test's script is loaded, and what was there before is put back when the
// last one unloads.
import { format } from 'node:util';
import { current } from './vu/vu-state.js';

const CONSOLE_LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const;

let holders = 0;
let restore: (() => void) | null = null;

function scriptOfCurrent() {
  const script = current().script;
  if (!script) throw new Error("k6's script globals are only defined for a script's code");
  return script;
}

/** Installs the globals for one more loaded script; releaseScriptGlobals() when it unloads. */
export function holdScriptGlobals(): void {
  if (holders++ > 0) return;
  const globals: Record<string, PropertyDescriptor> = {
    __ENV: { get: () => scriptOfCurrent().env },
    __VU: { get: () => current().id },
    __ITER: { get: () => current().iterationInScenario },
    open: { value: (path: string, mode?: string) => scriptOfCurrent().open(path, mode), writable: true },
  };
  const previous = new Map(Object.keys(globals).map((k) => [k, Object.getOwnPropertyDescriptor(globalThis, k)]));
  const originalConsole = CONSOLE_LEVELS.map((level) => [level, console[level]] as const);
  for (const [k, d] of Object.entries(globals)) Object.defineProperty(globalThis, k, { ...d, configurable: true });
  for (const [level, original] of originalConsole) {
    console[level] = (...args: unknown[]) => {
      const s = current();
      if (!s.script) return original.apply(console, args);
      // An interrupted VU's output is dropped with the rest of what it does.
      if (!s.vu?.interrupted) s.script.console(level, format(...args));
    };
  }
  restore = () => {
    for (const [k, d] of previous) {
      if (d) Object.defineProperty(globalThis, k, d);
      else delete (globalThis as Record<string, unknown>)[k];
    }
    for (const [level, fn] of originalConsole) console[level] = fn;
  };
}

export function releaseScriptGlobals(): void {
  if (holders === 0) return;
  if (--holders === 0) {
    restore?.();
    restore = null;
  }
}
