// The faults section of a load report run under a nemesis: what was broken
// and how often, what stayed indeterminate, how fast the registry came back,
// the flags that replay the schedule, and what the run measured of speed but
// did not judge. The timeline is the certification's faults chart, so the two
// reports draw faults alike.
import type { FaultsSummary } from '../../load/runner/judge-under-faults.ts';
import { faultBandsDetails, faultsTimeline } from '../charts/faults-timeline.ts';
import { escapeXml as esc } from '../charts/svg.ts';
import { figureCell, table } from '../look.ts';

const MEASURED_NOT_JUDGED =
  'Under faults, latency and throughput thresholds, phase checks a fault failed, phases cut at their budget and iterations the generator could not start are measured, not judged: the verdict rests on the audit after the faults healed.';

const kindsOf = (f: FaultsSummary) => Object.entries(f.by_fault);
const ms = (n: number | null) => (n === null ? '-' : `${n} ms`);

export function faultsHtml(f: FaultsSummary, h = 'h2'): string {
  const kinds = kindsOf(f).map(([k, n]) => [esc(k), figureCell(String(n))]);
  const notJudged =
    f.not_judged.length > 0
      ? `<ul>${f.not_judged.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>`
      : '<p class="muted">Nothing the run measured crossed a limit.</p>';
  return `<${h}>Faults</${h}>
<p>${f.faults} fault(s) injected; ${f.indeterminate_ops} operation(s) indeterminate after the flows' retries, each read back and settled before the audit. The registry was ready again within ${ms(f.recovery_ms_max)} of a heal (median ${ms(f.recovery_ms_median)}). The proxy forwarded ${f.forwarded} request(s), reset ${f.reset_before_forward} before forwarding and lost ${f.lost_after_forward} response(s) after the registry acted.</p>
${kinds.length ? table(['fault', 'count'], kinds) : '<p class="muted">No fault fell.</p>'}
<p>Replay: <code>${esc(f.replay)}</code></p>
${faultsTimeline(f)}
${faultBandsDetails(f.bands)}
<p><b>Measured under faults, not judged.</b></p>
<p>${MEASURED_NOT_JUDGED}</p>
${notJudged}
`;
}

export function faultsMarkdown(f: FaultsSummary): string[] {
  return [
    '## Faults',
    '',
    `${f.faults} fault(s) injected; ${f.indeterminate_ops} operation(s) indeterminate after the flows' retries, each read back and settled before the audit. Recovery after a heal: median ${ms(f.recovery_ms_median)}, max ${ms(f.recovery_ms_max)}. The proxy forwarded ${f.forwarded} request(s), reset ${f.reset_before_forward} before forwarding and lost ${f.lost_after_forward} response(s) after the registry acted.`,
    '',
    '| fault | count |',
    '|---|---|',
    ...kindsOf(f).map(([k, n]) => `| ${k} | ${n} |`),
    '',
    `Replay: \`${f.replay}\``,
    '',
    '### Measured under faults, not judged',
    '',
    MEASURED_NOT_JUDGED,
    '',
    ...(f.not_judged.length > 0 ? f.not_judged.map((x) => `- ${x}`) : ['Nothing the run measured crossed a limit.']),
    '',
  ];
}
