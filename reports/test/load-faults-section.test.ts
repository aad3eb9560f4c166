// A load run under a nemesis shows its faults in both report forms: the
// faults by kind with their counts, the operations left indeterminate,
// recovery median and max, the replay flags, and what was measured but not
// judged; the HTML draws the faults timeline. A run without a nemesis has
// no such section.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeXml } from '../charts/svg.ts';
import { renderLoadHtml } from '../load/render-html.ts';
import { renderLoadMarkdown } from '../load/render-markdown.ts';
import { sampleLoad, sampleLoadUnderFaults } from './sample-documents.ts';

const judged = sampleLoadUnderFaults();
const f = judged.faults;

describe('the load report of a run under faults', () => {
  it('HTML: faults by kind, indeterminate operations, recovery, replay, and the timeline', () => {
    const html = renderLoadHtml(judged);
    assert.match(html, /<h2>Faults<\/h2>/);
    assert.match(html, /<tr><td data-label="fault">proxy<\/td><td class="n" data-label="count">3<\/td><\/tr>/);
    assert.match(html, new RegExp(`${f.indeterminate_ops} operation\\(s\\) indeterminate`));
    assert.match(html, new RegExp(`within ${f.recovery_ms_max} ms of a heal \\(median ${f.recovery_ms_median} ms\\)`));
    assert.ok(html.includes(`<code>${f.replay}</code>`), 'the replay flags');
    assert.equal(
      (html.match(/<title>proxy \d+–\d+ ms, ready \d+ ms after the heal<\/title>/g) ?? []).length,
      3 * f.bands.length,
      'every fault shaded in the three panels',
    );
    assert.ok(
      html.indexOf('<h2>Faults</h2>') < html.indexOf('<h2>SLOs against the results</h2>'),
      'the faults come before the thresholds they make unjudged',
    );
  });

  it('HTML and Markdown say thresholds and phase checks were measured, not judged, and list them', () => {
    const forms: Array<[string, (s: string) => string]> = [
      [renderLoadHtml(judged), escapeXml],
      [renderLoadMarkdown(judged), (s) => s],
    ];
    for (const [text, as] of forms) {
      assert.match(text, /Measured under faults, not judged/);
      for (const item of f.not_judged) assert.ok(text.includes(as(item)), `lists ${item}`);
    }
  });

  it('Markdown: faults by kind, indeterminate operations, recovery and replay', () => {
    const md = renderLoadMarkdown(judged);
    assert.match(md, /^## Faults$/m);
    assert.match(md, /^\| proxy \| 3 \|$/m);
    assert.match(md, new RegExp(`${f.indeterminate_ops} operation\\(s\\) indeterminate`));
    assert.match(md, new RegExp(`median ${f.recovery_ms_median} ms, max ${f.recovery_ms_max} ms`));
    assert.ok(md.includes(`Replay: \`${f.replay}\``));
  });

  it('a run without a nemesis has no faults section', () => {
    assert.doesNotMatch(renderLoadHtml(sampleLoad()), /<h2>Faults<\/h2>|Measured under faults/);
    assert.doesNotMatch(renderLoadMarkdown(sampleLoad()), /## Faults|Measured under faults/);
  });
});
