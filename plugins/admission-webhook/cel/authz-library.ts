// Upstream's CEL authorizer library (k8s.io/apiserver/pkg/cel/library/authz.go) for match
// conditions: `authorizer.group(g).resource(r)[.subresource(s)][.namespace(n)][.name(x)].check(verb)`,
// `authorizer.path(p).check(verb)`, `authorizer.serviceAccount(ns, name)`,
// `authorizer.requestResource.check(verb)`, and on the Decision `allowed()`, `reason()`,
// `errored()`, `error()`.
//
// CEL evaluation is synchronous and authorizers are not, so a check whose answer is not known
// yet is recorded as pending and answered with a placeholder; the evaluator then asks the
// authorizer chain for every pending check and evaluates again (CEL has no side effects, so the
// final pass, with every answer known, is the result).
import type { CelFunc } from '@bufbuild/cel';
import type { DescMessage, Registry } from '@bufbuild/protobuf';
import type { FieldDescriptorProto_Type } from '@bufbuild/protobuf/wkt';
import type { UserInfo } from '../../../core/authn/user.js';
import { cel, protobuf, protobufWkt } from '../../../core/cel-modules.js';

const PACKAGE = 'kubernetes.authorization';

/** Type names the static checker knows (cel/check.ts): the full names of the messages below. */
export const AUTHZ_TYPES = {
  authorizer: `${PACKAGE}.Authorizer`, pathCheck: `${PACKAGE}.PathCheck`, groupCheck: `${PACKAGE}.GroupCheck`,
  resourceCheck: `${PACKAGE}.ResourceCheck`, decision: `${PACKAGE}.Decision`,
} as const;

interface Descriptors {
  readonly registry: Registry;
  readonly AUTHORIZER: DescMessage;
  readonly PATH_CHECK: DescMessage;
  readonly GROUP_CHECK: DescMessage;
  readonly RESOURCE_CHECK: DescMessage;
  readonly DECISION: DescMessage;
}

let descriptors: Descriptors | undefined;

/** The messages, made when the first match condition is compiled (they need protobuf loaded). */
export function authzDescriptors(): Descriptors {
  return descriptors ??= makeDescriptors();
}

function makeDescriptors(): Descriptors {
  const { create, createFileRegistry } = protobuf();
  const { FieldDescriptorProto_Label, FieldDescriptorProto_Type, FileDescriptorProtoSchema } = protobufWkt();
  const STRING = FieldDescriptorProto_Type.STRING;
  const MESSAGE = FieldDescriptorProto_Type.MESSAGE;
  const field = (name: string, number: number, type: FieldDescriptorProto_Type, typeName?: string) =>
    ({ name, number, type, label: FieldDescriptorProto_Label.OPTIONAL, jsonName: name, ...(typeName ? { typeName: `.${PACKAGE}.${typeName}` } : {}) });

  // The values are opaque upstream; here they are small messages so CEL can carry them. Only
  // `requestResource` is meant to be read as a field (it is a variable upstream).
  const file = create(FileDescriptorProtoSchema, {
    name: 'platform/authorizer.proto',
    package: PACKAGE,
    syntax: 'proto3',
    messageType: [
      { name: 'Authorizer', field: [field('requestResource', 1, MESSAGE, 'ResourceCheck')] },
      { name: 'PathCheck', field: [field('path', 1, STRING)] },
      { name: 'GroupCheck', field: [field('group', 1, STRING)] },
      {
        name: 'ResourceCheck',
        field: [field('group', 1, STRING), field('resource', 2, STRING), field('subresource', 3, STRING), field('namespace', 4, STRING), field('name', 5, STRING)],
      },
      { name: 'Decision', field: [field('decision', 1, STRING), field('reason', 2, STRING), field('error', 3, STRING)] },
    ],
  });

  const registry = createFileRegistry(file, () => undefined);
  const desc = (name: string): DescMessage => registry.getMessage(`${PACKAGE}.${name}`)!;
  return {
    registry, AUTHORIZER: desc('Authorizer'), PATH_CHECK: desc('PathCheck'), GROUP_CHECK: desc('GroupCheck'),
    RESOURCE_CHECK: desc('ResourceCheck'), DECISION: desc('Decision'),
  };
}

/** What one check asks the authorizer chain. */
export interface CheckAttributes {
  readonly user: UserInfo;
  readonly verb: string;
  readonly resourceRequest: boolean;
  readonly path: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

export interface CheckAnswer { readonly decision: 'allow' | 'deny' | 'noopinion'; readonly reason: string; readonly error: string }

/** One admission request's checks: answers known so far and the ones still to ask. */
export class AuthorizerSession {
  readonly answers = new Map<string, CheckAnswer>();
  readonly pending = new Map<string, CheckAttributes>();
  constructor(readonly user: UserInfo) {}
  answer(attrs: CheckAttributes): CheckAnswer | undefined {
    const key = JSON.stringify(attrs);
    const known = this.answers.get(key);
    if (!known) this.pending.set(key, attrs);
    return known;
  }
}

// Messages carry no session or user; these maps do (the message objects are the keys).
const sessionOf = new WeakMap<object, AuthorizerSession>();
const userOf = new WeakMap<object, UserInfo>();

type Msg = Record<string, unknown> & { $typeName: string };
interface Reflected { readonly message: Msg }
const msg = (v: unknown): Msg => (v as Reflected).message;

function derive<T extends Msg>(from: Msg, made: T): T {
  const s = sessionOf.get(from);
  const u = userOf.get(from);
  if (s) sessionOf.set(made, s);
  if (u) userOf.set(made, u);
  return made;
}

/** The `authorizer` value of one evaluation; `requestResource` is the request's own resource. */
export function newAuthorizer(session: AuthorizerSession, request: { group: string; resource: string; subresource: string; namespace: string; name: string }): Msg {
  const { create } = protobuf();
  const { AUTHORIZER, RESOURCE_CHECK } = authzDescriptors();
  const rr = create(RESOURCE_CHECK, { group: request.group, resource: request.resource, subresource: request.subresource, namespace: request.namespace, name: request.name }) as unknown as Msg;
  const a = create(AUTHORIZER, { requestResource: rr as never }) as unknown as Msg;
  for (const m of [a, rr]) { sessionOf.set(m, session); userOf.set(m, session.user); }
  return a;
}

function decide(from: Msg, attrs: Omit<CheckAttributes, 'user'>): Msg {
  const { create } = protobuf();
  const { DECISION } = authzDescriptors();
  const session = sessionOf.get(from);
  const user = userOf.get(from);
  if (!session || !user) return create(DECISION, { decision: 'noopinion', error: 'authorizer is not available' }) as unknown as Msg;
  const known = session.answer({ ...attrs, user });
  // Unknown yet: a placeholder; the evaluator asks and evaluates again before using any result.
  return create(DECISION, known ? { decision: known.decision, reason: known.reason, error: known.error } : { decision: 'noopinion' }) as unknown as Msg;
}

/** The library's functions, made once, with the environment that declares them (environment.ts). */
export function authzFunctions(): CelFunc[] {
  const { celMethod, CelScalar, objectType } = cel();
  const { create } = protobuf();
  const { AUTHORIZER, PATH_CHECK, GROUP_CHECK, RESOURCE_CHECK, DECISION } = authzDescriptors();
  const T = (d: DescMessage) => objectType(d);
  const STR = CelScalar.STRING;
  return [
    celMethod('path', T(AUTHORIZER), [STR], T(PATH_CHECK), function (path) {
      return derive(msg(this), create(PATH_CHECK, { path }) as unknown as Msg) as never;
    }),
    celMethod('group', T(AUTHORIZER), [STR], T(GROUP_CHECK), function (group) {
      return derive(msg(this), create(GROUP_CHECK, { group }) as unknown as Msg) as never;
    }),
    celMethod('serviceAccount', T(AUTHORIZER), [STR, STR], T(AUTHORIZER), function (namespace, name) {
      const made = derive(msg(this), create(AUTHORIZER, {}) as unknown as Msg);
      userOf.set(made, {
        name: `system:serviceaccount:${namespace}:${name}`,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
      });
      return made as never;
    }),
    celMethod('resource', T(GROUP_CHECK), [STR], T(RESOURCE_CHECK), function (resource) {
      const g = msg(this);
      return derive(g, create(RESOURCE_CHECK, { group: String(g['group'] ?? ''), resource }) as unknown as Msg) as never;
    }),
    ...(['subresource', 'namespace', 'name'] as const).map((f) =>
      celMethod(f, T(RESOURCE_CHECK), [STR], T(RESOURCE_CHECK), function (value) {
        const r = msg(this);
        const next = { group: r['group'], resource: r['resource'], subresource: r['subresource'], namespace: r['namespace'], name: r['name'], [f]: value };
        return derive(r, create(RESOURCE_CHECK, next as never) as unknown as Msg) as never;
      })),
    celMethod('check', T(RESOURCE_CHECK), [STR], T(DECISION), function (verb) {
      const r = msg(this);
      return decide(r, {
        verb, resourceRequest: true, path: '', apiGroup: String(r['group'] ?? ''), resource: String(r['resource'] ?? ''),
        subresource: String(r['subresource'] ?? ''), namespace: String(r['namespace'] ?? ''), name: String(r['name'] ?? ''),
      }) as never;
    }),
    celMethod('check', T(PATH_CHECK), [STR], T(DECISION), function (verb) {
      const p = msg(this);
      return decide(p, { verb, resourceRequest: false, path: String(p['path'] ?? ''), apiGroup: '', resource: '', subresource: '', namespace: '', name: '' }) as never;
    }),
    celMethod('allowed', T(DECISION), [], CelScalar.BOOL, function () { return msg(this)['decision'] === 'allow'; }),
    celMethod('reason', T(DECISION), [], STR, function () { return String(msg(this)['reason'] ?? ''); }),
    celMethod('errored', T(DECISION), [], CelScalar.BOOL, function () { return String(msg(this)['error'] ?? '') !== ''; }),
    celMethod('error', T(DECISION), [], STR, function () { return String(msg(this)['error'] ?? ''); }),
  ];
}
