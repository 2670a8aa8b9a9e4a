// A real authorizer plugin for tests: a table of rules, first match decides, no match is no
// opinion. It taps `authorize` before every configured mode (stage -1), so with
// --authorization-mode=AlwaysDeny after it the table is the whole policy.
import type { Attributes, Decision } from '../../core/authz/attributes.js';
import type { Plugin } from '../../core/plugin.js';

export interface Rule {
  readonly user?: string;
  readonly group?: string;
  readonly verb?: string;
  readonly apiGroup?: string;
  readonly resource?: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly path?: string;
  readonly decision: 'allow' | 'deny';
  readonly reason?: string;
}

const matches = (r: Rule, a: Attributes): boolean =>
  (r.user === undefined || r.user === a.user.name)
  && (r.group === undefined || a.user.groups.includes(r.group))
  && (r.verb === undefined || r.verb === a.verb)
  && (r.apiGroup === undefined || (a.isResourceRequest && r.apiGroup === a.apiGroup))
  && (r.resource === undefined || (a.isResourceRequest && r.resource === a.resource))
  && (r.subresource === undefined || r.subresource === a.subresource)
  && (r.namespace === undefined || r.namespace === a.namespace)
  && (r.name === undefined || r.name === a.name)
  && (r.path === undefined || (!a.isResourceRequest && (r.path.endsWith('*') ? a.path.startsWith(r.path.slice(0, -1)) : r.path === a.path)));

export function tableAuthorizer(rules: readonly Rule[]): Plugin {
  return {
    name: 'TableAuthorizerForTests',
    apply(host) {
      host.hooks.authorize.tap({ name: 'TableAuthorizerForTests', stage: -1 }, (a): Decision | undefined => {
        const r = rules.find((x) => matches(x, a));
        if (!r) return undefined;
        return r.decision === 'allow' ? { decision: 'allow', reason: r.reason ?? 'allowed by the test table' } : { decision: 'deny', reason: r.reason ?? 'denied by the test table' };
      });
    },
  };
}
