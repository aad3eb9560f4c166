// One failed conformance case on a page, the conformance report's and the
// certification's alike: the clause it broke, quoted and linked; what went
// wrong; whether the harness's replay before retirement reproduced it; the
// exchange shown once, long bodies folded; then what reproduces it, the
// `--case` rerun first and the curl replay folded beneath, with what the
// run's retirement means for that replay.
import type { BodyExcerpt, Exchange } from '../../client/exchange.ts';
import type { CaseResult, ConformanceResult, ReplayOutcome } from '../../conformance/runner/result.ts';
import { escapeXml as esc } from '../charts/svg.ts';
import { badge } from '../look.ts';
import { bodyText, requestHead, responseHead } from './exchange-text.ts';
import { exchangeReplay, rerunCommand } from './reproduce.ts';

/** Bodies longer than this many lines are folded under a summary saying what they are. */
const FOLD_LINES = 12;

function bodyHtml(what: string, body: BodyExcerpt): string {
  const text = bodyText(body);
  const lines = text.split('\n').length;
  if (lines <= FOLD_LINES) return `<pre>${esc(text)}</pre>`;
  return `<details><summary>${what}: ${lines} lines, ${body.bytes} bytes</summary><pre>${esc(text)}</pre></details>`;
}

export function exchangeHtml(e: Exchange): string {
  return [
    `<pre>${esc(requestHead(e))}</pre>`,
    e.request.body ? bodyHtml('request body', e.request.body) : '',
    `<pre>${esc(responseHead(e))}</pre>`,
    e.response?.body ? bodyHtml('response body', e.response.body) : '',
  ].join('');
}

const answer = (r: ReplayOutcome) => (r.status === null ? 'no answer' : `${r.status}${r.code ? ` ${r.code}` : ''}`);

/** What the replay before retirement found, in one line. */
export function replayLine(r: ReplayOutcome): string {
  switch (r.outcome) {
    case 'reproduced':
      return `Replayed once after the run, before its data was retired: it reproduced (${r.status === null ? (r.note ?? 'no answer again') : `${answer(r)} again`}).`;
    case 'differed':
      return `Replayed once after the run, before its data was retired: it did not reproduce; the registry answered ${answer(r)}${r.note ? ` (${r.note})` : ''}.`;
    case 'no-answer':
      return `Replayed once after the run, before its data was retired: no answer came (${r.note ?? 'unknown'}), so it neither reproduced nor did not.`;
    default:
      return `Not replayed after the run: ${r.note ?? 'unknown'}.`;
  }
}

/** What the run's retirement means for replaying the exchange now. */
function afterRetirement(r: ConformanceResult): string {
  if (r.kept_data)
    return `The run kept its data (<code>--keep-data</code>), so this replays against the records the case left. Retire them when done: <code>${esc(r.kept_data.retire)}</code>`;
  if (r.retirement.status === 'not_run') return 'The run did not retire its data, so this replays against the records the case left.';
  return 'The run retired its data afterwards (types disabled, replicas offline, routes settled), so a replay now may be answered otherwise; the <code>--case</code> rerun above makes fresh records. Run with <code>--keep-data</code> to keep them for replaying.';
}

export function failureHtml(r: ConformanceResult, c: CaseResult): string {
  const clause = c.failure_clause ?? c.clause;
  const quote = c.clause_text ? `<blockquote class="clause">${esc(c.clause_text)}</blockquote>` : '';
  const replay = c.replay ? `<p>${badge(c.replay.outcome, c.replay.outcome.replace('-', ' '))} ${esc(replayLine(c.replay))}</p>` : '';
  const exchange = c.exchange
    ? `<p class="muted">The exchange that showed it:</p>${exchangeHtml(c.exchange)}`
    : '<p class="muted">No exchange recorded.</p>';
  const curl = c.exchange
    ? `<details><summary>Replay that exchange with curl</summary><pre>${esc(exchangeReplay(r, c.exchange))}</pre><p class="muted">${afterRetirement(r)}</p></details>`
    : '';
  return `<div class="case"><h3>${badge(c.status)} <code>${esc(c.id)}</code></h3>
<p>Breaks <a href="#clause-${esc(clause)}">[${esc(clause)}]</a> (${esc(c.severity ?? 'unknown')}). ${esc(c.description)}</p>${quote}
<p><strong>${esc(c.message ?? '')}</strong></p>${replay}${exchange}
<p class="muted">To reproduce, rerun the case:</p><pre>${esc(rerunCommand(r, c))}</pre>${curl}</div>`;
}
