// The functions of the authorization CEL environment the checker knows: cel-go's standard
// library and ext.Strings (version 2), which @bufbuild/cel evaluates too, written as
// `(arg, ...) result` or `receiver.(arg, ...) result`, capital letters being type parameters.
// The Kubernetes libraries and the cel-go extensions upstream adds to the environment
// (environment/base.go) are listed by name: plat cannot evaluate them, so a condition calling one
// is refused when it is loaded instead of failing, and following failurePolicy, on every request.
import { listOf, mapOf, T, typeOf, type CelT } from './cel-types.js';

export interface Overload {
  readonly member: boolean;
  readonly args: readonly CelT[];
  readonly result: CelT;
}

const ORDERED = ['bool', 'int', 'uint', 'double', 'string', 'bytes', 'timestamp', 'duration'];
const NUMBERS = ['int', 'uint', 'double'];
const compare = [
  ...ORDERED.map((t) => `(${t}, ${t}) bool`),
  ...NUMBERS.flatMap((a) => NUMBERS.filter((b) => b !== a).map((b) => `(${a}, ${b}) bool`)),
];
const arithmetic = (types: readonly string[]): string[] => types.map((t) => `(${t}, ${t}) ${t}`);
const conversions = (to: string, from: readonly string[]): string[] => from.map((f) => `(${f}) ${to}`);
const timeGetters = ['timestamp.() int', 'timestamp.(string) int'];
const durationGetters = ['duration.() int'];

const SIGNATURES: Readonly<Record<string, readonly string[]>> = {
  '_?_:_': ['(bool, A, A) A'],
  '_&&_': ['(bool, bool) bool'],
  '_||_': ['(bool, bool) bool'],
  '!_': ['(bool) bool'],
  '-_': ['(int) int', '(double) double'],
  '@not_strictly_false': ['(bool) bool'],
  '_==_': ['(A, A) bool'],
  '_!=_': ['(A, A) bool'],
  '_<_': compare, '_<=_': compare, '_>_': compare, '_>=_': compare,
  '_+_': [...arithmetic([...NUMBERS, 'string', 'bytes']), '(list(A), list(A)) list(A)',
    '(timestamp, duration) timestamp', '(duration, timestamp) timestamp', '(duration, duration) duration'],
  '_-_': [...arithmetic(NUMBERS), '(timestamp, timestamp) duration', '(timestamp, duration) timestamp', '(duration, duration) duration'],
  '_*_': arithmetic(NUMBERS),
  '_/_': arithmetic(NUMBERS),
  '_%_': arithmetic(['int', 'uint']),
  '_[_]': ['(list(A), int) A', '(map(K, V), K) V'],
  '@in': ['(A, list(A)) bool', '(K, map(K, V)) bool'],
  size: ['(string) int', '(bytes) int', '(list(A)) int', '(map(K, V)) int',
    'string.() int', 'bytes.() int', 'list(A).() int', 'map(K, V).() int'],
  int: conversions('int', ['int', 'uint', 'double', 'string', 'timestamp']),
  uint: conversions('uint', ['int', 'uint', 'double', 'string']),
  double: conversions('double', ['int', 'uint', 'double', 'string']),
  string: conversions('string', ['int', 'uint', 'double', 'bool', 'string', 'bytes', 'timestamp', 'duration']),
  bytes: conversions('bytes', ['bytes', 'string']),
  bool: conversions('bool', ['bool', 'string']),
  dyn: ['(A) dyn'],
  type: ['(A) type(A)'],
  duration: conversions('duration', ['string', 'duration']),
  timestamp: conversions('timestamp', ['string', 'int', 'timestamp']),
  contains: ['string.(string) bool'],
  endsWith: ['string.(string) bool'],
  startsWith: ['string.(string) bool'],
  matches: ['(string, string) bool', 'string.(string) bool'],
  getFullYear: timeGetters, getMonth: timeGetters, getDayOfYear: timeGetters, getDayOfMonth: timeGetters,
  getDate: timeGetters, getDayOfWeek: timeGetters,
  getHours: [...timeGetters, ...durationGetters], getMinutes: [...timeGetters, ...durationGetters],
  getSeconds: [...timeGetters, ...durationGetters], getMilliseconds: [...timeGetters, ...durationGetters],
  // ext.Strings version 2
  charAt: ['string.(int) string'],
  indexOf: ['string.(string) int', 'string.(string, int) int'],
  lastIndexOf: ['string.(string) int', 'string.(string, int) int'],
  lowerAscii: ['string.() string'],
  upperAscii: ['string.() string'],
  replace: ['string.(string, string) string', 'string.(string, string, int) string'],
  split: ['string.(string) list(string)', 'string.(string, int) list(string)'],
  substring: ['string.(int) string', 'string.(int, int) string'],
  trim: ['string.() string'],
  join: ['list(string).() string', 'list(string).(string) string'],
  format: ['string.(list(dyn)) string'],
  'strings.quote': ['(string) string'],
};

/**
 * Declared upstream (library.Lists, Regex, URLs, IP, CIDR, Quantity, Format, Authz, AuthzSelectors;
 * ext.Sets, ext.TwoVarComprehensions; cel.OptionalTypes) but not evaluable by plat. indexOf and
 * lastIndexOf on a list (library.Lists) are caught by their receiver in the checker.
 */
export const UNSUPPORTED = new Set([
  'isSorted', 'sum', 'min', 'max',
  'find', 'findAll',
  'url', 'isURL', 'getScheme', 'getHost', 'getHostname', 'getPort', 'getEscapedPath', 'getQuery',
  'ip', 'isIP', 'ip.isCanonical', 'family', 'isUnspecified', 'isLoopback', 'isLinkLocalMulticast',
  'isLinkLocalUnicast', 'isGlobalUnicast',
  'cidr', 'isCIDR', 'containsIP', 'containsCIDR', 'masked', 'prefixLength',
  'quantity', 'isQuantity', 'sign', 'isGreaterThan', 'isLessThan', 'compareTo', 'add', 'sub',
  'asInteger', 'isInteger', 'asApproximateFloat',
  'format.named', 'format.dns1123Label', 'format.dns1123Subdomain', 'format.dns1035Label',
  'format.qualifiedName', 'format.dns1123LabelPrefix', 'format.dns1123SubdomainPrefix',
  'format.dns1035LabelPrefix', 'format.labelValue', 'format.uri', 'format.uuid', 'format.byte',
  'format.date', 'format.datetime', 'validate',
  'path', 'group', 'serviceAccount', 'resource', 'subresource', 'namespace', 'name', 'check',
  'allowed', 'reason', 'errored', 'error', 'fieldSelector', 'labelSelector',
  'sets.contains', 'sets.equivalent', 'sets.intersects',
  'all', 'exists', 'existsOne', 'exists_one', 'transformList', 'transformMap', 'transformMapEntry',
  'optional.of', 'optional.ofNonZeroValue', 'optional.none', 'hasValue', 'value', 'orValue', 'or',
]);

/** Parses one type of the signature notation; `rest` is what follows it. */
function parseType(text: string): { type: CelT; rest: string } {
  const m = /^\s*([A-Za-z_]+)/.exec(text)!;
  const name = m[1]!;
  let rest = text.slice(m[0].length);
  const args: CelT[] = [];
  if (rest.startsWith('(')) {
    rest = rest.slice(1);
    while (!rest.startsWith(')')) {
      const p = parseType(rest);
      args.push(p.type);
      rest = p.rest.replace(/^\s*,/, '');
    }
    rest = rest.slice(1);
  }
  if (name === 'list') return { type: listOf(args[0]!), rest };
  if (name === 'map') return { type: mapOf(args[0]!, args[1]!), rest };
  if (name === 'type') return { type: typeOf(args[0]), rest };
  if (/^[A-Z]$/.test(name)) return { type: { k: 'param', name }, rest };
  return { type: T[name as keyof typeof T], rest };
}

function parseOverload(signature: string): Overload {
  let rest = signature;
  let receiver: CelT | undefined;
  if (!rest.startsWith('(')) {
    const r = parseType(rest);
    receiver = r.type;
    rest = r.rest.slice(1);
  }
  const args: CelT[] = receiver ? [receiver] : [];
  rest = rest.slice(1);
  while (!rest.startsWith(')')) {
    const p = parseType(rest);
    args.push(p.type);
    rest = p.rest.replace(/^\s*,\s*/, '');
  }
  return { member: receiver !== undefined, args, result: parseType(rest.slice(1)).type };
}

export const FUNCTIONS: ReadonlyMap<string, readonly Overload[]> = new Map(
  Object.entries(SIGNATURES).map(([name, sigs]) => [name, sigs.map(parseOverload)]),
);

/** Identifiers the standard environment resolves to type values (`type(x) == string`). */
export const TYPE_IDENTS: ReadonlyMap<string, CelT> = new Map([
  ...(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'dyn'] as const).map((n): [string, CelT] => [n, typeOf(T[n])]),
  ['null_type', typeOf(T.null)], ['list', typeOf(listOf(T.dyn))], ['map', typeOf(mapOf(T.dyn, T.dyn))],
  ['type', typeOf(typeOf())],
  ['google.protobuf.Timestamp', typeOf(T.timestamp)], ['google.protobuf.Duration', typeOf(T.duration)],
]);
