// `fleetproof token`: prints one bearer token signed with a key from
// `fleetproof keys` (or the one `fleetproof serve` printed).
import { componentValidator } from '../contract/schemas.ts';
import { ROLES } from '../contract/records.ts';
import { DEFAULT_AUDIENCE, DEFAULT_TOKEN_TTL_SECONDS, loadSigningKey, type SigningKey } from '../contract/tokens.ts';
import { mintToken } from '../client/token-minter.ts';
import { parseFlags, UsageError, type FlagSpec } from './args.ts';
import { unknownName } from './suggest.ts';

export const summary = 'print a bearer token for the given roles and tenant';

export const FLAGS = {
  key: { type: 'string', description: 'private signing key (signing-key.jwk.json)' },
  roles: { type: 'string', description: `comma-separated roles: ${ROLES.join(', ')}` },
  tenant: {
    type: 'string',
    description: "tenant_id claim; the only source of tenant authority ('' for none, as a --token-cmd {tenant} gives it)",
  },
  ttl: { type: 'string', description: 'lifetime in seconds', default: String(DEFAULT_TOKEN_TTL_SECONDS) },
  audience: { type: 'string', description: 'aud claim', default: DEFAULT_AUDIENCE },
} satisfies Record<string, FlagSpec>;

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
