// Live progress on the terminal. On a TTY: a progress bar with a running
// count per status and the time left, rewritten in place, with failures and
// errors printed above it as they happen. Elsewhere (CI logs, pipes): a line
// per stage of the run and each failure, error and skip in full; passing
// cases are counted, not listed, so the log stays the length of what needs
// reading.
import { VERDICT_WORDS } from '../../client/verdict-words.ts';
import { bar, counted, eta, seconds, statusLine } from '../../client/terminal.ts';
import { summarizeExchange } from '../harness/exchange.ts';
import type { CaseResult, ConformanceResult } from './result.ts';
import type { CaseStatus } from './status.ts';

export interface ProgressSink {
  start(info: { runId: string; target: string; implementation: string; total: number }): void;
  /** A new phase; `done` says what a phase other than running cases did, once it ends (default: the cases it finished). */
  phase(name: string, done?: () => string): void;
  caseFinished(result: CaseResult): void;
  note(message: string): void;
  finish(result: ConformanceResult, outDir: string): void;
}

export const silentProgress: ProgressSink = { start() {}, phase() {}, caseFinished() {}, note() {}, finish() {} };

interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const LABEL: Record<CaseStatus, string> = { pass: 'pass ', fail: 'FAIL ', skip: 'skip ', error: 'ERROR' };

function details(r: CaseResult): string[] {
  const lines = [`  ${r.message ?? ''}`.trimEnd()];
  if (r.failure_clause && r.failure_clause !== r.clause) lines.push(`  breaks [${r.failure_clause}]`);
  if (r.exchange) lines.push(`  ${summarizeExchange(r.exchange)}`);
  return lines.filter((l) => l.trim() !== '');
}

export function terminalProgress(stream: Stream = process.stdout, tty = Boolean(stream.isTTY)): ProgressSink {
  const counts: Record<CaseStatus, number> = { pass: 0, fail: 0, skip: 0, error: 0 };
  let total = 0;
  let started = Date.now();
  let phase = '';
  let phaseDone: (() => string) | undefined;
  let phaseStarted = { at: Date.now(), done: 0 };
  const done = () => counts.pass + counts.fail + counts.skip + counts.error;
  const line = () => {
    const elapsed = Date.now() - started;
    const share = total > 0 ? done() / total : 0;
    const left = eta(elapsed, share);
    return `${bar(share)} ${String(done()).padStart(String(total).length)}/${total}  ${counts.pass} pass, ${counts.fail} fail, ${counts.skip} skip, ${counts.error} error  ${phase}  ${seconds(elapsed / 1000)}${left ? `, ${left}` : ''}`;
  };
  const live = statusLine(stream, line, tty);
  const endPhase = () => {
    if (tty || phase === '') return;
    const what = phaseDone ? phaseDone() : counted(done() - phaseStarted.done, 'case');
    stream.write(`   ${phase}: ${what} in ${seconds((Date.now() - phaseStarted.at) / 1000)}\n`);
  };
  return {
    start(info) {
      total = info.total;
      started = Date.now();
      stream.write(`fleetproof conform ${info.runId}\ntarget ${info.target} (${info.implementation}), ${counted(info.total, 'case')}\n`);
      live.start();
    },
    phase(name, whatItDid) {
      endPhase();
      phase = name;
      phaseDone = whatItDid;
      phaseStarted = { at: Date.now(), done: done() };
      if (!tty) stream.write(`-- ${name}\n`);
      live.redraw();
    },
    caseFinished(r) {
      counts[r.status] += 1;
      const head = `${LABEL[r.status]} ${r.id} [${r.clause}]`;
      if (r.status === 'fail' || r.status === 'error') live.above([head, ...details(r)]);
      else if (r.status === 'skip' && !tty) stream.write(`${head}${r.message ? ` (${r.message})` : ''}\n`);
      else live.redraw();
    },
    note(message) {
      live.above([message]);
    },
    finish(result, outDir) {
      live.end();
      endPhase();
      const s = result.summary;
      const retired =
        result.retirement.status === 'retired'
          ? 'retired'
          : `retirement ${result.retirement.status} (${counted(result.retirement.failures.length, 'problem')})`;
      stream.write(
        [
          `${counted(s.total, 'case')}: ${s.pass} pass, ${s.fail} fail, ${s.skip} skip, ${s.error} error in ${(result.timings.duration_ms / 1000).toFixed(1)} s; run data ${retired}`,
          `verdict: ${VERDICT_WORDS[result.verdict]}${result.selection.complete ? '' : ' (partial run: not a certification)'}`,
          `reports: ${outDir}`,
        ].join('\n') + '\n',
      );
    },
  };
}
