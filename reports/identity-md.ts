// What produced a run and the command that reruns it, as the Markdown
// reports give it right under their verdict: the same facts as the HTML
// pages' head (look.ts).
import type { RunIdentity } from './look.ts';

export function identityMarkdown(id: RunIdentity): string[] {
  const missing = 'not recorded';
  return [
    `- run: \`${id.run}\``,
    `- harness: ${id.harness}`,
    `- contract: ${id.contract ? `\`${id.contract}\`` : missing}`,
    `- case set: ${id.caseSet ? `\`${id.caseSet.digest}\` (${id.caseSet.count} ${id.caseSet.of})` : missing}`,
    '',
    ...(id.rerun ? ['Rerun this run (secrets are placeholders):', '', '```sh', id.rerun, '```', ''] : []),
  ];
}
