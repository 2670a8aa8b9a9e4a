// Which media type a resource response goes out in: upstream's NegotiateOutputMediaType over the
// serializers a built-in resource has (JSON, YAML, protobuf), with goautoneg's Accept parsing and
// ordering and the parameter checks of acceptMediaTypeOptions. A resource request's answer
// (`RequestScope` restrictions: `as=Table` for JSON and YAML, PartialObjectMetadata for any) and
// its error Status (DefaultEndpointRestrictions: no conversion, no server version) differ only in
// what they allow. plat writes no protobuf: a protobuf clause that wins is answered in JSON, as
// plat answered every Accept before.
import { errors } from '../api/errors.js';
import { choosesPretty } from './pretty-print.js';
import type { PartialTarget } from './partial-metadata.js';

export type OutputMediaType = 'application/json' | 'application/yaml';

/**
 * What an answer is written as: its media type, for JSON whether indented (pretty-print.ts), and
 * the metadata-only form the chosen clause converts to, if any (a Table is table.ts's).
 */
export interface Output { readonly media: OutputMediaType; readonly pretty: boolean; readonly partial?: PartialTarget }

const SERVED = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'] as const;
type Served = typeof SERVED[number];
/** The serializers with a stream (watch) form. */
const STREAMING = new Set<Served>(['application/json', 'application/vnd.kubernetes.protobuf']);
const META_GROUP_VERSION = 'v1';

interface Clause { type: string; subType: string; q: number; params: Map<string, string> }

/** goautoneg.ParseAccept: clauses in header order, then sort.Sort with its Less (insertion sort for short lists). */
export function parseAccept(header: string): Clause[] {
  const out: Clause[] = [];
  for (const raw of header.split(',')) {
    const part = raw.replace(/^ +| +$/g, '');
    const [range = '', ...params] = part.split(';');
    const sp = range.split('/');
    const type = sp[0]!.replace(/^ +| +$/g, '');
    let subType: string;
    if (sp.length === 1 && type === '*') subType = '*';
    else if (sp.length === 2) subType = sp[1]!.replace(/^ +| +$/g, '');
    else continue;
    const clause: Clause = { type, subType, q: 1, params: new Map() };
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      const token = param.slice(0, eq).replace(/^ +| +$/g, '');
      const value = param.slice(eq + 1);
      if (token === 'q') clause.q = goParseFloat(value);
      else clause.params.set(token, value.replace(/^ +| +$/g, ''));
    }
    out.push(clause);
  }
  const less = (a: Clause, b: Clause): boolean =>
    a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subType !== '*' && b.subType === '*');
  // Go's sort.Sort insertion-sorts only up to 12 elements; longer headers are any client's to send
  // before authentication, so they get an O(n log n) sort (ties may then order unlike pdqsort's).
  if (out.length > 12) return out.sort((a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : 0));
  for (let i = 1; i < out.length; i++) {
    for (let j = i; j > 0 && less(out[j]!, out[j - 1]!); j--) [out[j], out[j - 1]] = [out[j - 1]!, out[j]!];
  }
  return out;
}

/** strconv.ParseFloat's value, or 0 where Go's would fail (goautoneg ignores the error). */
function goParseFloat(s: string): number {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) && !/^[+-]?(inf|infinity|nan)$/i.test(s)) return 0;
  return Number(s.replace(/^([+-]?)inf(inity)?$/i, '$1Infinity'));
}

/** What an endpoint allows beyond a plain encoding (negotiation.EndpointRestrictions). */
export type Restrictions = 'resource' | 'error';

/** acceptMediaTypeOptions: whether `clause` may be served as `media` on this endpoint. */
function allows(clause: Clause, media: Served, restrictions: Restrictions): boolean {
  let convert: { kind: string; group: string; version: string } | undefined;
  for (const [k, v] of clause.params) {
    if (k === 'as' || k === 'g' || k === 'v') {
      convert ??= { kind: '', group: '', version: '' };
      if (k === 'as') convert.kind = v; else if (k === 'g') convert.group = v; else convert.version = v;
    } else if (k === 'stream') {
      if (v && (!STREAMING.has(media) || v !== 'watch')) return false;
    } else if (k === 'sv') {
      if (v && (restrictions === 'error' || v !== META_GROUP_VERSION)) return false;
    }
  }
  if (!convert) return true;
  if (restrictions === 'error') return false;
  if (convert.group !== 'meta.k8s.io' || (convert.version !== 'v1' && convert.version !== 'v1beta1')) return false;
  if (convert.kind === 'Table') return media === 'application/json' || media === 'application/yaml';
  return convert.kind === 'PartialObjectMetadata' || convert.kind === 'PartialObjectMetadataList';
}

/**
 * The media type to answer in and whether it is indented (`prettyPrint` is the request's
 * isPrettyPrint); throws 406 NotAcceptable when no clause of `accept` names one this endpoint
 * serves. An absent or empty Accept is JSON.
 */
export function negotiateOutput(accept: string | undefined, restrictions: Restrictions, prettyPrint: boolean): Output {
  if (!accept) return { media: 'application/json', pretty: choosesPretty('application/json', undefined, prettyPrint) };
  for (const clause of parseAccept(accept)) {
    for (const media of SERVED) {
      const [type, subType] = media.split('/');
      const matches = (clause.type === type && (clause.subType === subType || clause.subType === '*'))
        || (clause.type === '*' && clause.subType === '*');
      if (!matches || !allows(clause, media, restrictions)) continue;
      // A protobuf answer goes out as compact JSON: protobuf has no pretty serializer.
      const out: Output = { media: media === 'application/yaml' ? media : 'application/json', pretty: choosesPretty(media, clause.params, prettyPrint) };
      const as = clause.params.get('as');
      if (as !== 'PartialObjectMetadata' && as !== 'PartialObjectMetadataList') return out;
      return { ...out, partial: { kind: as, apiVersion: `meta.k8s.io/${clause.params.get('v')!}` } };
    }
  }
  throw notAcceptable();
}

const notAcceptable = () => errors.notAcceptable(`only the following media types are accepted: ${SERVED.join(', ')}`);

/**
 * NegotiateOutputMediaTypeStream: the same choice, but a serializer without a stream form (YAML)
 * cannot carry a watch, so it is a 406 too.
 */
export function negotiateWatchOutput(accept: string | undefined): Output {
  // A watch streams with the stream serializer, which has no pretty form.
  const out = negotiateOutput(accept, 'resource', false);
  if (out.media === 'application/yaml') throw notAcceptable();
  return out;
}
