// One kubeconfig file's text decoded as clientcmd's Load decodes it (latest.Codec: YAML to JSON,
// version/kind sniffing, encoding/json into v1.Config, conversion to the internal maps): the
// errors are upstream's texts, and a file with no data is an empty config, not an error.
import { notRegisteredText } from '../api/scheme-errors.js';
import { yaml } from '../yaml-module.js';
import { interpretError } from '../api/go-decode-errors.js';
import { GO_YAML } from '../api/go-yaml.js';
import { goStructFieldError } from '../api/patch/json-value.js';
import { base64ErrorIndex } from '../api/base64-error.js';
import { yamlError } from '../server/body.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A v1 field's Go type: what encoding/json accepts and how its error names the type. */
type GoType =
  | { readonly kind: 'string' | 'bool' | 'bytes' | 'strings' | 'stringsMap' | 'any' }
  | { readonly kind: 'struct'; readonly name: string; readonly fields: Readonly<Record<string, GoType>> }
  | { readonly kind: 'list'; readonly of: GoType & { kind: 'struct' } };

const STRING: GoType = { kind: 'string' };
const BOOL: GoType = { kind: 'bool' };
const BYTES: GoType = { kind: 'bytes' };
const ANY: GoType = { kind: 'any' };
const struct = (name: string, fields: Record<string, GoType>) => ({ kind: 'struct', name, fields }) as const;
const EXTENSIONS: GoType = { kind: 'list', of: struct('NamedExtension', { name: STRING, extension: ANY }) };
const CLUSTER = struct('Cluster', {
  server: STRING, 'tls-server-name': STRING, 'insecure-skip-tls-verify': BOOL, 'certificate-authority': STRING,
  'certificate-authority-data': BYTES, 'proxy-url': STRING, 'disable-compression': BOOL, extensions: EXTENSIONS,
});
const AUTH_INFO = struct('AuthInfo', {
  'client-certificate': STRING, 'client-certificate-data': BYTES, 'client-key': STRING, 'client-key-data': BYTES,
  token: STRING, tokenFile: STRING, as: STRING, 'as-uid': STRING, 'as-groups': { kind: 'strings' },
  'as-user-extra': { kind: 'stringsMap' }, username: STRING, password: STRING,
  'auth-provider': struct('AuthProviderConfig', { name: STRING, config: ANY }), exec: struct('ExecConfig', {
    command: STRING, args: { kind: 'strings' }, env: { kind: 'list', of: struct('ExecEnvVar', { name: STRING, value: STRING }) },
    apiVersion: STRING, installHint: STRING, provideClusterInfo: BOOL, interactiveMode: STRING,
  }), extensions: EXTENSIONS,
});
const CONTEXT = struct('Context', { cluster: STRING, user: STRING, namespace: STRING, extensions: EXTENSIONS });
const CONFIG = struct('Config', {
  kind: STRING, apiVersion: STRING, preferences: struct('Preferences', { colors: BOOL, extensions: EXTENSIONS }),
  clusters: { kind: 'list', of: struct('NamedCluster', { name: STRING, cluster: CLUSTER }) },
  users: { kind: 'list', of: struct('NamedAuthInfo', { name: STRING, user: AUTH_INFO }) },
  contexts: { kind: 'list', of: struct('NamedContext', { name: STRING, context: CONTEXT }) },
  'current-context': STRING, extensions: EXTENSIONS,
});

function goTypeName(t: GoType): string {
  switch (t.kind) {
    case 'string': case 'bool': return t.kind;
    case 'bytes': return '[]uint8';
    case 'strings': return '[]string';
    case 'stringsMap': return 'map[string][]string';
    case 'any': return 'interface {}';
    case 'struct': return `v1.${t.name}`;
    case 'list': return `[]v1.${t.of.name}`;
  }
}

/** encoding/json's first error for `v` decoded into `t` (document order), as UnmarshalTypeError says it. */
function typeError(v: unknown, t: GoType, owner: string, path: readonly string[]): string | undefined {
  if (v === null || t.kind === 'any') return undefined;
  const wrong = (type: GoType = t, value: unknown = v) => goStructFieldError(value, owner, path.join('.'), goTypeName(type));
  switch (t.kind) {
    case 'string': return typeof v === 'string' ? undefined : wrong();
    case 'bool': return typeof v === 'boolean' ? undefined : wrong();
    case 'bytes': {
      if (typeof v !== 'string') return wrong();
      // encoding/json decodes []byte as base64.StdEncoding and saves its error as it is.
      const at = base64ErrorIndex(v);
      return at < 0 ? undefined : `illegal base64 data at input byte ${at}`;
    }
    case 'strings':
      if (!Array.isArray(v)) return wrong();
      // encoding/json names the element's JSON type (a list item adds nothing to the field path).
      for (const s of v) if (s !== null && typeof s !== 'string') return wrong(STRING, s);
      return undefined;
    case 'stringsMap':
      if (!isObj(v)) return wrong();
      for (const list of Object.values(v)) {
        const e = typeError(list, { kind: 'strings' }, owner, path);
        if (e) return e;
      }
      return undefined;
    case 'list':
      if (!Array.isArray(v)) return wrong();
      for (const item of v) {
        const e = typeError(item, t.of, owner, path);
        if (e) return e;
      }
      return undefined;
    case 'struct':
      if (!isObj(v)) return wrong();
      for (const [key, value] of Object.entries(v)) {
        const field = t.fields[key];
        const e = field && typeError(value, field, t.name, [...path, key]);
        if (e) return e;
      }
      return undefined;
  }
}

/** The scheme's name in its errors: where latest.go creates it. */
const SCHEME = 'k8s.io/client-go/tools/clientcmd/api/latest/latest.go:50';

/** The object's group/version and kind as the YAML serializer defaults them (v1, Config). */
function kindError(doc: Obj): string | undefined {
  const kind = typeof doc['kind'] === 'string' && doc['kind'] !== '' ? doc['kind'] : 'Config';
  const version = typeof doc['apiVersion'] === 'string' && doc['apiVersion'] !== '' ? doc['apiVersion'] : 'v1';
  if (kind === 'Config' && version === 'v1') return undefined;
  return notRegisteredText(kind, version, SCHEME);
}

// Go's %v of the v1 list a duplicate name was found in, field by field in struct order.
const goBytes = (s: unknown) => `[${typeof s === 'string' ? [...Buffer.from(s, 'base64')].join(' ') : ''}]`;
const goStrings = (v: unknown) => `[${Array.isArray(v) ? v.join(' ') : ''}]`;
const goText = (v: unknown) => (typeof v === 'string' ? v : '');
const goBool = (v: unknown) => String(v === true);
const goExtensions = (v: unknown) => `[${(Array.isArray(v) ? v.filter(isObj) : [])
  .map((e) => `{${goText(e['name'])} {${goBytes(Buffer.from(JSON.stringify(e['extension'] ?? null)).toString('base64'))} <nil>}}`).join(' ')}]`;
// A pointer inside a struct prints as its address, which no run repeats; nil as <nil>.
const goPointer = (v: unknown) => (isObj(v) ? '0xc000000000' : '<nil>');
function goStringsMap(v: unknown): string {
  const o = isObj(v) ? v : {};
  return `map[${Object.keys(o).sort().map((k) => `${k}:${goStrings(o[k])}`).join(' ')}]`;
}
const DUMP: Record<string, (o: Obj) => string[]> = {
  cluster: (c) => [goText(c['server']), goText(c['tls-server-name']), goBool(c['insecure-skip-tls-verify']), goText(c['certificate-authority']),
    goBytes(c['certificate-authority-data']), goText(c['proxy-url']), goBool(c['disable-compression']), goExtensions(c['extensions'])],
  user: (u) => [goText(u['client-certificate']), goBytes(u['client-certificate-data']), goText(u['client-key']), goBytes(u['client-key-data']),
    goText(u['token']), goText(u['tokenFile']), goText(u['as']), goText(u['as-uid']), goStrings(u['as-groups']), goStringsMap(u['as-user-extra']),
    goText(u['username']), goText(u['password']), goPointer(u['auth-provider']), goPointer(u['exec']), goExtensions(u['extensions'])],
  context: (c) => [goText(c['cluster']), goText(c['user']), goText(c['namespace']), goExtensions(c['extensions'])],
};

const CONVERSIONS = [
  { list: 'clusters', field: 'cluster', from: '*[]NamedCluster', to: '*map[string]*api.Cluster' },
  { list: 'users', field: 'user', from: '*[]NamedAuthInfo', to: '*map[string]*api.AuthInfo' },
  { list: 'contexts', field: 'context', from: '*[]NamedContext', to: '*map[string]*api.Context' },
] as const;

/** The conversion to the internal maps: a name twice in one file's list is an error. */
function duplicateError(doc: Obj): string | undefined {
  for (const c of CONVERSIONS) {
    const list = Array.isArray(doc[c.list]) ? (doc[c.list] as unknown[]).filter(isObj) : [];
    const seen = new Set<string>();
    for (const e of list) {
      const name = goText(e['name']);
      if (!seen.has(name)) { seen.add(name); continue; }
      const dump = list.map((x) => `{${goText(x['name'])} {${DUMP[c.field]!(isObj(x[c.field]) ? x[c.field] as Obj : {}).join(' ')}}}`).join(' ');
      return `error converting ${c.from} into ${c.to}: duplicate name "${name}" in list: [${dump}]`;
    }
  }
  return undefined;
}

export class KubeconfigDecodeError extends Error {
  override readonly name = 'KubeconfigDecodeError';
}

/** The file's config as a JSON value (the first YAML document only, as yaml.Unmarshal reads it). */
export function decodeKubeconfig(text: string): Obj {
  // sigs.k8s.io/yaml turns a file of only comments or blanks into JSON null, which decodes to an empty config.
  const [first] = yaml().parseAllDocuments(text, GO_YAML);
  const err = first?.errors[0];
  if (err) throw new KubeconfigDecodeError(yamlError(err, text));
  const doc: unknown = JSON.parse(JSON.stringify(first?.toJS() ?? null)) as unknown;
  const sniffed = interpretError(doc);
  if (sniffed) throw new KubeconfigDecodeError(`couldn't get version/kind; json parse error: ${sniffed}`);
  if (!isObj(doc)) return {};
  const problem = kindError(doc) ?? typeError(doc, CONFIG, 'Config', []) ?? duplicateError(doc);
  if (problem) throw new KubeconfigDecodeError(problem);
  return doc;
}
