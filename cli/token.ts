// `fleetproof token`: prints one bearer token signed with a key from
// `fleetproof keys` (or the one `fleetproof serve` printed).
import { componentValidator } from '../contract/schemas.ts';
import { ROLES } from '../contract/records.ts';
import { loadSigningKey, type SigningKey } from '../contract/tokens.ts';
import { mintToken } from '../client/token-minter.ts';
import { parseFlags, UsageError } from './args.ts';
import { unknownName } from './suggest.ts';

import { FLAGS, summary } from './flags/token.ts';

function usageError(message: string): UsageError {
  return new UsageError(`${message}`);
}

function parseRoles(text: string): string[] {
  const roles = text
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r !== '');
  const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
  if (unknown.length > 0) throw usageError(unknown.map((r) => unknownName('role', r, ROLES)).join('; '));
  return roles;
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags('token', summary, FLAGS, argv);
  if (!parsed) return 0;
  const { values } = parsed;
  if (values.key === undefined) throw usageError('--key is required');
  if (values.roles === undefined) throw usageError('--roles is required (an empty list is --roles "")');
  const roles = parseRoles(values.roles);
  if (values.tenant === '') delete values.tenant;
  if (values.tenant !== undefined && !componentValidator('TenantId')(values.tenant))
    throw usageError(`--tenant ${values.tenant} is not a valid tenant id`);
  if (!/^[1-9][0-9]{0,9}$/.test(values.ttl!)) throw usageError('--ttl must be a positive whole number of seconds');
  if (values.audience === '') throw usageError('--audience must not be empty');
  let key: SigningKey;
  try {
    key = await loadSigningKey(values.key);
  } catch (err) {
    console.error(`fleetproof token: ${(err as Error).message}`);
    return 2;
  }
  const token = await mintToken({
    key,
    roles,
    ttlSeconds: Number(values.ttl),
    audience: values.audience!,
    ...(values.tenant !== undefined ? { tenant: values.tenant } : {}),
  });
  console.log(token);
  return 0;
}
