// `plat token create`: mints a bootstrap token — a Secret bootstrap-token-<id> of type
// bootstrap.platform/token in plat-system, created through the API with the credentials of a
// kubeconfig (kubeconfig-flags.ts says which) — and prints `<id>.<secret>` for a node agent's bootstrap kubeconfig.
import { randomInt } from 'node:crypto';
import { rfc3339 } from '../../core/api/meta.js';
import { FlagError, Flags } from '../../core/flags/flag-set.js';
import { goQuote } from '../../core/go-quote.js';
import { apiRequest } from './api-request.js';
import { refusedAnswer } from './csr-connection.js';
import { defineKubeconfigFlags, kubeconfigConnection } from './kubeconfig-flags.js';
import { parseSubcommand, type SubcommandHelp } from './subcommand-help.js';

const SECRETS = '/api/v1/namespaces/plat-system/secrets';

export const TOKEN_USAGE = `Usage:
  plat token create [--kubeconfig FILE] [--as USER [--as-group GROUP]... [--as-uid UID]] [--ttl 24h0m0s] [--groups system:bootstrappers:NAME,...] [--description TEXT]
`;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const randomString = (n: number) => Array.from({ length: n }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
// Upstream's api.BootstrapGroupPattern, printed as it is in ValidateBootstrapGroupName's error.
const GROUP_PATTERN = String.raw`\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\z`;
const GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** The flags of `plat token create`, not yet parsed. */
export function tokenCreateFlags(): Flags {
  const f = new Flags();
  const S = 'plat token create';
  defineKubeconfigFlags(f, S);
  f.define({ name: 'ttl', type: 'duration', default: 24 * 3600_000, section: S, help: 'Lifetime of the token; 0 means it never expires.',
    validate: (v) => ((v as number) < 0 ? 'must not be negative' : undefined) });
  f.define({ name: 'groups', type: 'strings', default: [], section: S, help: 'Extra groups (each system:bootstrappers:...) the token authenticates as.',
    validate: (v) => (v as string[]).filter((g) => !GROUP.test(g)).map((g) => `bootstrap group ${goQuote(g)} is invalid (must match ${GROUP_PATTERN})`)[0] });
  f.define({ name: 'description', type: 'string', default: '', section: S, help: 'Human-readable description stored with the token.' });
  return f;
}

export const TOKEN_HELP: Readonly<Record<string, SubcommandHelp>> = {
  create: {
    use: 'plat token create [options]',
    long: `Create a bootstrap token and print it as <id>.<secret>.

The token is a Secret bootstrap-token-<id> of type bootstrap.platform/token in plat-system, created
through the API with the kubeconfig's credentials; a node agent's bootstrap kubeconfig carries it.`,
    examples: `  # A token that expires in an hour
  plat token create --ttl 1h --description "node n1"

  # A token whose nodes also authenticate in group system:bootstrappers:rack1
  plat token create --groups system:bootstrappers:rack1`,
    flags: tokenCreateFlags,
  },
};

function flagsOf(argv: readonly string[]): Flags {
  const f = tokenCreateFlags();
  const { positional } = parseSubcommand('plat token create', f, argv);
  if (positional.length) throw new FlagError(`unexpected argument "${positional[0]}"`);
  return f;
}

export async function tokenCreate(argv: readonly string[], now = new Date()): Promise<string> {
  const f = flagsOf(argv);
  const conn = kubeconfigConnection(f);
  const id = randomString(6);
  const secret = randomString(16);
  const ttl = f.get<number>('ttl');
  const groups = f.get<string[]>('groups');
  const stringData: Record<string, string> = {
    'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true',
    ...(ttl > 0 ? { expiration: rfc3339(new Date(now.getTime() + ttl)) } : {}),
    ...(groups.length ? { 'auth-extra-groups': groups.join(',') } : {}),
    ...(f.get<string>('description') ? { description: f.get<string>('description') } : {}),
  };
  const res = await apiRequest(conn, 'POST', SECRETS, {
    apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.platform/token',
    metadata: { name: `bootstrap-token-${id}`, namespace: 'plat-system' }, stringData,
  });
  if (res.status !== 201) throw refusedAnswer(res, 'POST', SECRETS);
  return `${id}.${secret}\n`;
}
