// `plat auth can-i VERB (TYPE[.GROUP] | TYPE[.GROUP]/NAME | /PATH)`: asks the API server with a
// SelfSubjectAccessReview (authorization.platform/v1) whether the kubeconfig's user may do it,
// prints yes or no (and the authorizer's reason), exit 0 for yes and 1 for no, as `kubectl auth
// can-i` does (which only speaks authorization.k8s.io). TYPE is resolved through discovery: plural,
// singular, short name or kind, optionally qualified by group.
import { FlagError, Flags } from '../../core/flags/flag-set.js';
import { apiRequest, type Connection } from './api-request.js';
import { CommandError } from './command-error.js';
import { refusedAnswer } from './csr-connection.js';
import { defineKubeconfigFlags, kubeconfigConnection } from './kubeconfig-flags.js';
import { parseSubcommand, type SubcommandHelp } from './subcommand-help.js';

export const AUTH_USAGE = `Usage:
  plat auth can-i VERB TYPE[.GROUP][/NAME] [-n NAMESPACE | -A] [--subresource SUB] [--as USER] [--as-group GROUP]... [--as-uid UID] [--kubeconfig FILE]
  plat auth can-i VERB /NONRESOURCE/PATH [--kubeconfig FILE]

Prints "yes" (exit 0) or "no" (exit 1; -q, --quiet: prints nothing); an error is exit 1 as well, 2 a command-line mistake.
`;

const NON_STANDARD_RESOURCE_NAMES = new Set(['users', 'groups']);
// kubectl's resourceVerbs and nonResourceURLVerbs: another verb is asked about, with a warning.
const RESOURCE_VERBS = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'use', 'bind', 'impersonate', '*', 'approve', 'sign', 'escalate', 'attest']);
const NON_RESOURCE_URL_VERBS = new Set(['get', 'put', 'post', 'head', 'options', 'delete', 'patch', '*']);

/** kubectl's WarningPrinter line: its messages end in a newline of their own, so a blank line follows. */
const warning = (message: string): string => `Warning: ${message}\n\n`;


/** `discovered`: the type is one discovery lists (kubectl's isNamespaced can only answer for those). */
interface Resolved { group: string; resource: string; namespaced: boolean; discovered: boolean; warning?: string }

interface DiscoveredResource { name: string; singularName?: string; shortNames?: string[]; kind: string; namespaced: boolean }

/** Every resource the server serves, with its group, from the legacy discovery documents. */
async function discover(conn: Connection): Promise<{ group: string; r: DiscoveredResource }[]> {
  const out: { group: string; r: DiscoveredResource }[] = [];
  const list = async (path: string, group: string) => {
    const res = await apiRequest(conn, 'GET', path);
    if (res.status !== 200) throw refusedAnswer(res, 'GET', path);
    const resources = (res.json as { resources?: unknown } | undefined)?.resources;
    // Something at the server's address that is not an API server (a proxy's page, `{}`).
    if (!Array.isArray(resources)) throw new CommandError(`discovery ${path}: the server did not answer with an API resource list`);
    for (const r of resources as DiscoveredResource[]) if (!r.name.includes('/')) out.push({ group, r });
  };
  await list('/api/v1', '');
  const groups = await apiRequest(conn, 'GET', '/apis');
  if (groups.status !== 200) throw refusedAnswer(groups, 'GET', '/apis');
  const found = (groups.json as { groups?: unknown } | undefined)?.groups;
  if (!Array.isArray(found)) throw new CommandError('discovery /apis: the server did not answer with an API group list');
  for (const g of found as { name: string; preferredVersion: { groupVersion: string } }[]) {
    await list(`/apis/${g.preferredVersion.groupVersion}`, g.name);
  }
  return out;
}

async function resolve(conn: Connection, type: string): Promise<Resolved> {
  if (type === '*') return { group: '*', resource: '*', namespaced: true, discovered: true };
  const dot = type.indexOf('.');
  const name = (dot < 0 ? type : type.slice(0, dot)).toLowerCase();
  const group = dot < 0 ? undefined : type.slice(dot + 1).toLowerCase();
  const found = (await discover(conn)).filter(({ group: g, r }) => (group === undefined || g === group)
    && (r.name === name || r.singularName === name || r.kind.toLowerCase() === name || (r.shortNames ?? []).includes(name)));
  const first = found[0];
  // As kubectl: a type discovery does not list (signers, users, ...) is still a fine question; but
  // asked by resource and group, where kubectl asks about the argument as typed in the core group,
  // which no rule on signers matches (README: a deliberate difference).
  if (!first) {
    // kubectl's nonStandardResourceNames: users and groups are only impersonated, never served, so no warning.
    if (!group && NON_STANDARD_RESOURCE_NAMES.has(name)) return { group: '', resource: name, namespaced: false, discovered: false };
    const text = group ? `the server doesn't have a resource type '${name}' in group '${group}'` : `the server doesn't have a resource type '${name}'`;
    return { group: group ?? '', resource: name, namespaced: false, discovered: false, warning: warning(text) };
  }
  return { group: first.group, resource: first.r.name, namespaced: first.r.namespaced, discovered: true };
}

/** The flags of `plat auth can-i`, not yet parsed. */
export function canIFlags(): Flags {
  const f = new Flags();
  const S = 'plat auth can-i';
  defineKubeconfigFlags(f, S);
  f.define({ name: 'namespace', shorthand: 'n', type: 'string', default: 'default', section: S, help: 'Namespace of the action.' });
  f.define({ name: 'all-namespaces', shorthand: 'A', type: 'bool', default: false, section: S, help: 'Ask for all namespaces.' });
  f.define({ name: 'subresource', type: 'string', default: '', section: S, help: 'Subresource, such as approval or status.' });
  f.define({ name: 'quiet', shorthand: 'q', type: 'bool', default: false, section: S, help: 'If true, suppress output and just return the exit code.' });
  return f;
}

// kubectl auth can-i's Long and Example texts, with plat's types and command.
export const AUTH_HELP: Readonly<Record<string, SubcommandHelp>> = {
  'can-i': {
    use: 'plat auth can-i VERB [TYPE | TYPE/NAME | NONRESOURCEURL] [options]',
    long: `Check whether an action is allowed.

VERB is a logical API verb like 'get', 'list', 'watch', 'delete', etc. TYPE is a resource. Shortcuts
and groups will be resolved. NONRESOURCEURL is a partial URL that starts with "/". NAME is the name
of a particular resource. This command pairs nicely with impersonation. See --as flag.`,
    examples: `  # Check to see if I can create certificate signing requests
  plat auth can-i create certificatesigningrequests.certificates.platform

  # Check to see if service account "foo" of namespace "dev" can list secrets in the namespace "prod"
  # You must be allowed to use impersonation for the option "--as"
  plat auth can-i list secrets --as=system:serviceaccount:dev:foo -n prod

  # Check to see if I can approve certificate signing requests
  plat auth can-i update certificatesigningrequests.certificates.platform --subresource=approval

  # Check to see if I can access the URL /healthz
  plat auth can-i get /healthz`,
    flags: canIFlags,
  },
};

/**
 * Asks the question of `argv`; `warn` gets kubectl's warnings as they arise (Validate prints them
 * before the review is sent, so they are said even when it then fails).
 */
export async function authCanI(argv: readonly string[], warn: (text: string) => void): Promise<{ stdout: string; allowed: boolean }> {
  const f = canIFlags();
  const { positional } = parseSubcommand('plat auth can-i', f, argv);
  // kubectl 1.32's words (it no longer takes the name as a third argument); exit 2, not kubectl's 1,
  // which -q gives the answer "no".
  if (positional.length !== 2) {
    throw new FlagError('you must specify two arguments: verb resource or verb resource/resourceName.\nSee \'plat auth can-i -h\' for help and examples.');
  }
  const [verb, target] = positional as [string, string];
  const conn = kubeconfigConnection(f);

  let spec: Record<string, unknown>;
  const allNamespaces = f.get<boolean>('all-namespaces');
  if (target.startsWith('/')) {
    // cani.go Validate's refusals (a mistake on the command line: plat's exit 2).
    if (f.get<string>('subresource')) throw new FlagError('--subresource can not be used with NonResourceURL');
    if (!NON_RESOURCE_URL_VERBS.has(verb)) warn(warning(`verb '${verb}' is not a known verb`));
    spec = { nonResourceAttributes: { verb, path: target } };
  } else {
    const slash = target.indexOf('/');
    const type = slash < 0 ? target : target.slice(0, slash);
    const name = slash < 0 ? '' : target.slice(slash + 1);
    const r = await resolve(conn, type);
    if (r.warning) warn(r.warning);
    // cani.go Validate: a cluster-wide type is said to be one, because the question still carries
    // the namespace (RunAccessCheck sends o.Namespace whatever the type: a Role there may answer it).
    if (!allNamespaces) {
      if (r.discovered && !r.namespaced) warn(warning(`resource '${r.resource}' is not namespace scoped${r.group ? ` in group '${r.group}'` : ''}`));
      if (!RESOURCE_VERBS.has(verb)) warn(warning(`verb '${verb}' is not a known verb`));
    }
    // As kubectl's (ToRawKubeConfigLoader().Namespace()): -n, else the kubeconfig context's
    // namespace, else default; an empty -n sets nothing. -A asks about all (no namespace).
    const namespace = allNamespaces ? ''
      : f.get<string>('namespace') !== '' && f.isSetOnCommandLine('namespace') ? f.get<string>('namespace') : conn.namespace || 'default';
    spec = {
      resourceAttributes: {
        verb, group: r.group, resource: r.resource, ...(f.get<string>('subresource') ? { subresource: f.get<string>('subresource') } : {}),
        ...(name ? { name } : {}), ...(namespace ? { namespace } : {}),
      },
    };
  }
  const SSAR = '/apis/authorization.platform/v1/selfsubjectaccessreviews';
  const res = await apiRequest(conn, 'POST', SSAR, { apiVersion: 'authorization.platform/v1', kind: 'SelfSubjectAccessReview', spec });
  if (res.status < 200 || res.status > 299) throw refusedAnswer(res, 'POST', SSAR);
  const status = ((res.json as { status?: { allowed?: boolean; reason?: string; evaluationError?: string } } | undefined)?.status) ?? {};
  // kubectl's -q: the answer is in the exit code alone (warnings and errors are still said).
  const quiet = f.get<boolean>('quiet');
  if (status.allowed) return { stdout: quiet ? '' : 'yes\n', allowed: true };
  return { stdout: quiet ? '' : `no${status.reason ? ` - ${status.reason}` : ''}${status.evaluationError ? ` - ${status.evaluationError}` : ''}\n`, allowed: false };
}
