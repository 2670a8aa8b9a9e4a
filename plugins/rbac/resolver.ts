// The rule resolver (pkg/registry/rbac/validation DefaultRuleResolver): which rules apply to a user
// in a namespace. ClusterRoleBindings first, then the RoleBindings of the namespace; a binding
// applies when one of its subjects is the user, one of the user's groups, or the user's service
// account. Objects come straight from storage through the served stores; a snapshot is reused
// only while the store's revision is unchanged, so every write is seen by the next request.
import { errors } from '../../core/api/errors.js';
import { goQuote } from '../../core/api/field-errors.js';
import type { UserInfo } from '../../core/authn/user.js';
import type { Host } from '../../core/host.js';
import { servedStore } from '../../core/registry/stores.js';
import type { ResourceStore } from '../../core/registry/store.js';
import type { Storage } from '../../core/storage/storage.js';
import {
  GROUP_KIND, RBAC_GROUP, RBAC_VERSION, SERVICE_ACCOUNT_KIND, USER_KIND,
  type ClusterRole, type PolicyRule, type Role, type RoleBinding, type RoleRef, type Subject,
} from './types.js';

interface Snapshot {
  readonly storage: Storage;
  readonly revision: number;
  readonly clusterRoleBindings: readonly RoleBinding[];
  readonly roleBindings: ReadonlyMap<string, readonly RoleBinding[]>;
  readonly clusterRoles: ReadonlyMap<string, ClusterRole>;
  /** By `namespace/name`. */
  readonly roles: ReadonlyMap<string, Role>;
}

/** One rule the visitor sees, with the binding it came from; or an error resolving a binding's role. */
export type Visit = { readonly rule: PolicyRule; readonly source: string } | { readonly error: Error };

/**
 * Where upstream reads the roles from, which words a missing one: the registry (the escalation
 * check: `clusterroles.<group> "x" not found`) or the informer's lister (the authorizer:
 * `clusterrole.<group> "x" not found`, the lister naming the resource by its kind).
 */
export type RoleSource = 'registry' | 'lister';

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** utilerrors.NewAggregate(errs).Error(): one message as it is, several deduplicated in brackets. */
export function aggregateText(errs: readonly Error[]): string {
  if (errs.length === 1) return errs[0]!.message;
  const texts = [...new Set(errs.map((e) => e.message))];
  return texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]`;
}

/** Does `subject` of a binding in `namespace` name this user? (appliesToUser) */
export function appliesToUser(user: UserInfo, s: Subject, namespace: string): boolean {
  switch (s.kind) {
    case USER_KIND: return user.name === s.name;
    case GROUP_KIND: return user.groups.includes(s.name ?? '');
    case SERVICE_ACCOUNT_KIND: {
      // A RoleBinding may leave the namespace out: it means the binding's own.
      const ns = s.namespace || namespace;
      return ns !== '' && user.name === `${SERVICE_ACCOUNT_PREFIX}${ns}:${s.name ?? ''}`;
    }
    default: return false;
  }
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === SERVICE_ACCOUNT_KIND) return `${s.kind} ${goQuote(`${s.name ?? ''}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind ?? ''} ${goQuote(s.name ?? '')}`;
}

function describeBinding(b: RoleBinding, s: Subject, namespace: string): string {
  const ref = `${b.roleRef?.kind ?? ''} ${goQuote(b.roleRef?.name ?? '')}`;
  return namespace
    ? `RoleBinding ${goQuote(`${b.metadata.name ?? ''}/${namespace}`)} of ${ref} to ${describeSubject(s, namespace)}`
    : `ClusterRoleBinding ${goQuote(b.metadata.name ?? '')} of ${ref} to ${describeSubject(s, '')}`;
}

export class RuleResolver {
  #cache: Snapshot | undefined;
  #loading: { readonly storage: Storage; readonly revision: number; readonly snapshot: Promise<Snapshot> } | undefined;

  constructor(private readonly host: Host) {}

  /**
   * The RBAC objects as of now, or undefined before the API is served or with none of its kinds
   * served (then nothing applies). The
   * revision is read before listing, so a snapshot is never older than the revision it is filed
   * under; concurrent requests share one load.
   */
  async #snapshot(): Promise<Snapshot | undefined> {
    const [crb, rb, cr, r] = ['clusterrolebindings', 'rolebindings', 'clusterroles', 'roles']
      .map((p) => servedStore(this.host, RBAC_GROUP, RBAC_VERSION, p));
    // A kind --runtime-config leaves out reads as none of it, as upstream's informer of a kind
    // that is not served stays empty; the others still apply.
    const served = [crb, rb, cr, r].find((s) => s !== undefined);
    if (!served) return undefined;
    const storage = served.storage;
    const revision = await storage.currentRevision();
    const fresh = (s: { storage: Storage; revision: number } | undefined) => s?.storage === storage && s.revision >= revision;
    if (fresh(this.#cache)) return this.#cache;
    if (!fresh(this.#loading)) {
      const list = async (store: ResourceStore | undefined) => (store ? (await storage.list(store.prefixFor(''))).items.map((kv) => kv.value as RoleBinding & Role) : []);
      const snapshot = (async (): Promise<Snapshot> => {
        const [crbs, rbs, crs, rs] = await Promise.all([crb, rb, cr, r].map(list));
        const roleBindings = new Map<string, RoleBinding[]>();
        for (const b of rbs!) {
          const ns = b.metadata.namespace ?? '';
          roleBindings.set(ns, [...(roleBindings.get(ns) ?? []), b]);
        }
        return {
          storage, revision, clusterRoleBindings: crbs!, roleBindings,
          clusterRoles: new Map(crs!.map((c) => [c.metadata.name ?? '', c])),
          roles: new Map(rs!.map((x) => [`${x.metadata.namespace ?? ''}/${x.metadata.name ?? ''}`, x])),
        };
      })();
      this.#loading = { storage, revision, snapshot };
    }
    const loading = this.#loading!;
    let snap: Snapshot;
    try {
      snap = await loading.snapshot;
    } catch (e) {
      if (this.#loading === loading) this.#loading = undefined;
      throw e;
    }
    if (!this.#cache || this.#cache.storage !== snap.storage || snap.revision > this.#cache.revision) this.#cache = snap;
    return snap;
  }

  /** GetRoleReferenceRules: the rules of the role a binding in `namespace` ('' for a ClusterRoleBinding) names. */
  async roleReferenceRules(ref: RoleRef, namespace: string): Promise<PolicyRule[]> {
    const snap = await this.#snapshot();
    // Fail closed: no roles to read is not a role without rules.
    if (!snap) throw new Error('the RBAC API is not served');
    return this.#referenced(snap, ref, namespace, 'registry');
  }

  #referenced(snap: Snapshot, ref: RoleRef, namespace: string, roles: RoleSource): PolicyRule[] {
    const name = ref.name ?? '';
    const missing = (plural: string, kind: string) => errors.notFound({ group: RBAC_GROUP, resource: roles === 'lister' ? kind : plural }, name);
    switch (ref.kind) {
      case 'Role': {
        const role = snap.roles.get(`${namespace}/${name}`);
        if (!role) throw missing('roles', 'role');
        return role.rules ?? [];
      }
      case 'ClusterRole': {
        const role = snap.clusterRoles.get(name);
        if (!role) throw missing('clusterroles', 'clusterrole');
        return role.rules ?? [];
      }
      default:
        throw new Error(`unsupported role reference kind: ${goQuote(ref.kind ?? '')}`);
    }
  }

  /** VisitRulesFor: every rule that applies to `user` in `namespace`, in upstream's order; errors for unresolvable roles. */
  async *visitRulesFor(user: UserInfo, namespace: string, roles: RoleSource = 'registry'): AsyncGenerator<Visit> {
    const snap = await this.#snapshot();
    if (!snap) return;
    const scopes: [readonly RoleBinding[], string][] = [[snap.clusterRoleBindings, '']];
    if (namespace) scopes.push([snap.roleBindings.get(namespace) ?? [], namespace]);
    for (const [bindings, ns] of scopes) {
      for (const b of bindings) {
        const subject = (b.subjects ?? []).find((s) => appliesToUser(user, s, ns));
        if (!subject) continue;
        let rules: PolicyRule[];
        try { rules = this.#referenced(snap, b.roleRef ?? {}, ns, roles); } catch (e) { yield { error: e as Error }; continue; }
        const source = describeBinding(b, subject, ns);
        for (const rule of rules) yield { rule, source };
      }
    }
  }

  /** RulesFor: all the rules, and the errors met resolving them (the rules found still count). */
  async rulesFor(user: UserInfo, namespace: string, roles: RoleSource = 'registry'): Promise<{ rules: PolicyRule[]; errors: Error[] }> {
    const rules: PolicyRule[] = [];
    const errs: Error[] = [];
    for await (const v of this.visitRulesFor(user, namespace, roles)) {
      if ('error' in v) errs.push(v.error); else rules.push(v.rule);
    }
    return { rules, errors: errs };
  }
}

const resolvers = new WeakMap<Host, RuleResolver>();

/** The host's resolver, shared by the authorizer and the escalation check. */
export function ruleResolverFor(host: Host): RuleResolver {
  let r = resolvers.get(host);
  if (!r) resolvers.set(host, (r = new RuleResolver(host)));
  return r;
}
