// Live progress on the terminal. On a TTY: one status line rewritten in
// place (a running count per status), with failures and errors printed above
// it as they happen. Elsewhere (CI logs, pipes): plain lines, one per
// finished case, so the log reads top to bottom.
import { VERDICT_WORDS } from '../../client/verdict-words.ts';
import { summarizeExchange } from '../harness/exchange.ts';
import type { CaseResult, ConformanceResult } from './result.ts';
import type { CaseStatus } from './status.ts';

export interface ProgressSink {
  start(info: { runId: string; target: string; implementation: string; total: number }): void;
  phase(name: string): void;
  caseFinished(result: CaseResult): void;
  note(message: string): void;
  finish(result: ConformanceResult, outDir: string): void;
}

export const silentProgress: ProgressSink = { start() {}, phase() {}, caseFinished() {}, note() {}, finish() {} };

interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
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
  const statusLine = () => {
    const done = counts.pass + counts.fail + counts.skip + counts.error;
    const elapsed = (Date.now() - started) / 1000;
    // Cases run at a steady pace once started, so the pace so far is the best guess for the rest.
    const left = done > 0 && done < total ? `, ~${Math.ceil((elapsed / done) * (total - done))}s left` : '';
    return `[${String(done).padStart(String(total).length)}/${total}] ${counts.pass} pass, ${counts.fail} fail, ${counts.skip} skip, ${counts.error} error  ${phase} ${elapsed.toFixed(1)}s elapsed${left}`;
  };
  const redraw = () => tty && stream.write(`\r\x1b[K${statusLine()}`);
  const above = (lines: string[]) => {
    if (tty) stream.write('\r\x1b[K');
    stream.write(lines.join('\n') + '\n');
    redraw();
  };
  return {
    start(info) {
      total = info.total;
      started = Date.now();
      stream.write(`fleetproof conform ${info.runId}\ntarget ${info.target} (${info.implementation}), ${info.total} cases\n`);
      redraw();
    },
    phase(name) {
      phase = name;
      if (!tty) stream.write(`-- ${name}\n`);
      redraw();
    },
    caseFinished(r) {
      counts[r.status] += 1;
      const head = `${LABEL[r.status]} ${r.id} [${r.clause}]${r.status === 'pass' ? ` ${r.duration_ms} ms` : ''}`;
      if (r.status === 'fail' || r.status === 'error') above([head, ...details(r)]);
      else if (!tty) stream.write(head + (r.status === 'skip' && r.message ? ` (${r.message})` : '') + '\n');
      else redraw();
    },
    note(message) {
      above([message]);
    },
    finish(result, outDir) {
      if (tty) stream.write(`\r\x1b[K${statusLine()}\n`);
      const s = result.summary;
      const retired =
        result.retirement.status === 'retired'
          ? 'retired'
          : `retirement ${result.retirement.status} (${result.retirement.failures.length} problems)`;
      stream.write(
        [
          `${s.total} cases: ${s.pass} pass, ${s.fail} fail, ${s.skip} skip, ${s.error} error in ${(result.timings.duration_ms / 1000).toFixed(1)} s; run data ${retired}`,
          `verdict: ${VERDICT_WORDS[result.verdict]}${result.selection.complete ? '' : ' (partial run: not a certification)'}`,
          `reports: ${outDir}`,
        ].join('\n') + '\n',
      );
    },
  };
}
