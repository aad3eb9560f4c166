// The target's GET /version as a reader wants it: the implementation, the
// contract it declares, its features, every limit with its value, and the
// variant's seed and choices when it names one. Members this harness does
// not know are shown too, as JSON, since a vendor may add them.
import { escapeXml as esc } from './charts/svg.ts';
import { facts } from './look.ts';

const bytes = (n: number) =>
  n >= 2 ** 20 && n % 2 ** 20 === 0 ? `${n / 2 ** 20} MiB` : n >= 1024 && n % 1024 === 0 ? `${n / 1024} KiB` : `${n}`;

function limitValue(name: string, n: unknown): string {
  if (typeof n !== 'number') return esc(JSON.stringify(n));
  return esc(name.endsWith('_bytes') ? `${bytes(n)} (${n} bytes)` : String(n));
}

const json = (v: unknown) => `<code>${esc(JSON.stringify(v))}</code>`;

export function versionTable(version: unknown): string {
  if (typeof version !== 'object' || version === null) return '<p class="muted">The target did not answer GET /version.</p>';
  const { implementation, contract, features, limits, variant, ...rest } = version as Record<string, unknown>;
  const impl = implementation as { name?: unknown; version?: unknown } | undefined;
  const rows: Array<[string, string]> = [];
  if (impl) rows.push(['implementation', `${esc(String(impl.name))} <b>${esc(String(impl.version))}</b>`]);
  if (contract !== undefined) rows.push(['contract', `<code>${esc(String(contract))}</code>`]);
  if (Array.isArray(features))
    rows.push(['features', features.length ? features.map((f) => `<code>${esc(String(f))}</code>`).join(', ') : 'none declared']);
  for (const [name, n] of Object.entries((limits as Record<string, unknown> | undefined) ?? {}))
    rows.push([`limit ${name.replace(/_/g, ' ')}`, `<span title="${esc(name)}">${limitValue(name, n)}</span>`]);
  if (variant && typeof variant === 'object') {
    const v = variant as { seed?: unknown; choices?: Record<string, unknown> };
    rows.push(['variant seed', esc(String(v.seed))]);
    for (const [name, choice] of Object.entries(v.choices ?? {})) rows.push([`variant ${name.replace(/_/g, ' ')}`, esc(String(choice))]);
  }
  for (const [name, value] of Object.entries(rest)) rows.push([name, json(value)]);
  return facts(rows);
}
