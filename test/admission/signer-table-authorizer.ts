// A test-only authorizer, loaded from a plat config file the way a user loads a third-party
// plugin. It answers the synthetic `signers` checks (verbs approve and sign) from a table keyed by
// user name, and has no opinion on anything else, which the chain behind it (the default
// --authorization-mode AlwaysAllow) then allows: the admission plugins are the only thing that
// tells the test users apart. --authorization-mode only takes the spec's mode names, so it taps
// ahead of the chain, where upstream's privileged-group authorizer sits.
//
// Options: { grants: { [user]: ['approve:example.com/my-signer', 'sign:example.com/*', ...] },
//            failing?: { [user]: ['approve:example.com/my-signer', ...] } }
// A `failing` entry makes that exact check throw, as an authorizer that errors does.
import type { Attributes, Decision } from '../../core/authz/attributes.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';

const PLUGIN_NAME = 'SignerTableAuthorizer';

export interface SignerTableOptions {
  readonly grants: Readonly<Record<string, readonly string[]>>;
  readonly failing?: Readonly<Record<string, readonly string[]>>;
}

/** Every `signers` check this module answered, in order (shared with the test through the module cache). */
export const signerChecks: Attributes[] = [];

const ALLOW: Decision = { decision: 'allow' };
/** Before the first chain entry (stage 0). */
const STAGE = -1;

export default function signerTableAuthorizer(options: SignerTableOptions): Plugin {
  const decide = (a: Attributes): Decision | undefined => {
    if (a.resource !== 'signers' || (a.verb !== 'approve' && a.verb !== 'sign')) return undefined;
    signerChecks.push(a);
    const key = `${a.verb}:${a.name}`;
    if (options.failing?.[a.user.name]?.includes(key)) throw new Error(`SignerTable: cannot decide ${key}`);
    if (options.grants[a.user.name]?.includes(key)) return ALLOW;
    return { decision: 'deny', reason: `${a.user.name} has no ${key}` };
  };
  return {
    name: PLUGIN_NAME,
    apply(host: Host): void {
      host.hooks.authorize.tap({ name: PLUGIN_NAME, stage: STAGE }, decide);
    },
  };
}
