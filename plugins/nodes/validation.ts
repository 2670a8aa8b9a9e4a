// ValidateNode and ValidateNodeUpdate (pkg/apis/core/validation), for the fields plat stores, with
// upstream's messages and field paths. Two upstream quirks are kept because clients see them:
// taint errors are rooted at `metadata.taints[i]` (ValidateNode builds the path from its
// `metadata` path), and node conditions and nodeInfo are not validated at all beyond their types.
// Bad values that are Go structs render as upstream renders them, JSON of the internal type.
import { isIP } from 'node:net';
import { appendErrors, fieldError, FieldPath, validateEach, type FieldError } from '../../core/api/field-errors.js';
import { compareQuantity, formatQuantity, parseQuantity, quantityOf, type Quantity } from '../../core/api/quantity.js';
import { labelValueErrors, qualifiedNameErrors } from '../../core/api/selectors/label-syntax.js';
import { coreFinalizerErrors } from '../../core/registry/core-finalizers.js';
import {
  ANNOTATION_PREFER_AVOID_PODS, ANNOTATION_TAINTS, TAINT_EFFECTS,
  type Node, type NodeConfigSource, type NodeTaint,
} from '../../core/nodes/node-object.js';

const internalError = (field: string, detail: string): FieldError => ({ type: 'InternalError', field, message: `Internal error: ${detail}` });
/** A bad value that is a Go struct or slice: JSON, as field.Error prints it. */
const rawInvalid = (field: string, json: string, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, message: `Invalid value: ${json}: ${detail}` });
const rawDuplicate = (field: string, json: string, detail?: string): FieldError =>
  ({ type: 'FieldValueDuplicate', field, message: `Duplicate value: ${json}${detail ? `: ${detail}` : ''}` });

/** ValidateLabelName: a taint key has label-key syntax. */
function labelNameErrors(key: string, path: string): FieldError[] {
  return qualifiedNameErrors(key).map((msg) => fieldError.invalid(path, key, msg));
}

const taintJson = (t: NodeTaint): string =>
  JSON.stringify({ Key: t.key ?? '', Value: t.value ?? '', Effect: t.effect ?? '', TimeAdded: t.timeAdded ?? null });

/** validateNodeTaints: key and value syntax, a known effect, unique by key and effect. */
export function validateNodeTaints(taints: readonly NodeTaint[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Map<string, Set<string>>();
  validateEach(errs, taints, (t, i) => {
    const at = path.index(i);
    appendErrors(errs, labelNameErrors(t.key ?? '', at.child('key').text));
    const valueErrs = labelValueErrors(t.value ?? '');
    if (valueErrs.length) errs.push(fieldError.invalid(at.child('value').text, t.value ?? '', valueErrs.join(';')));
    const effect = t.effect ?? '';
    if (effect === '') errs.push(fieldError.required(at.child('effect').text));
    else if (!(TAINT_EFFECTS as readonly string[]).includes(effect)) errs.push(fieldError.notSupported(at.child('effect').text, effect, TAINT_EFFECTS));
    const keys = seen.get(effect) ?? new Set<string>();
    if (keys.has(t.key ?? '')) {
      errs.push(rawDuplicate(at.text, taintJson(t), 'taints must be unique by key and effect pair'));
      return;
    }
    keys.add(t.key ?? '');
    seen.set(effect, keys);
  });
  return errs;
}

/** ValidateNodeSpecificAnnotations: the legacy taints and preferAvoidPods annotations must parse. */
function validateNodeAnnotations(annotations: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const taints = annotations?.[ANNOTATION_TAINTS];
  if (taints) {
    let parsed: unknown;
    try { parsed = JSON.parse(taints); } catch (e) { return [fieldError.invalid(path.text, ANNOTATION_TAINTS, (e as Error).message)]; }
    if (!Array.isArray(parsed)) return [fieldError.invalid(path.text, ANNOTATION_TAINTS, `json: cannot unmarshal ${parsed === null ? 'null' : typeof parsed} into Go value of type []core.Taint`)];
    appendErrors(errs, validateNodeTaints(parsed as NodeTaint[], path.child(ANNOTATION_TAINTS)));
  }
  const avoid = annotations?.[ANNOTATION_PREFER_AVOID_PODS];
  if (avoid) {
    let parsed: { preferAvoidPods?: { podSignature?: { podController?: { controller?: boolean } } }[] };
    try { parsed = JSON.parse(avoid); } catch (e) {
      return [...errs, fieldError.invalid(path.child('AvoidPods').text, ANNOTATION_PREFER_AVOID_PODS, (e as Error).message)];
    }
    validateEach(errs, Array.isArray(parsed?.preferAvoidPods) ? parsed.preferAvoidPods : [], (entry, i) => {
      const at = path.child(ANNOTATION_PREFER_AVOID_PODS).index(i).child('PodSignature');
      const controller = entry?.podSignature?.podController;
      if (!controller) errs.push(fieldError.required(at.text));
      else if (controller.controller !== true) errs.push(fieldError.invalid(at.child('PodController').child('Controller').text, false, 'must point to a controller'));
    });
  }
  return errs;
}

const INTEGER_RESOURCES = new Set(['pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps',
  'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers']);

/** IsExtendedResourceName: outside the platform namespace, and a qualified name as a quota key. */
function isExtendedResource(name: string): boolean {
  const native = !name.includes('/') || name.includes('platform/');
  if (native || name.startsWith('requests.')) return false;
  return qualifiedNameErrors(`requests.${name}`).length === 0;
}

/** ValidateResourceQuantityValue over capacity and allocatable (their strings parsed before validation). */
function validateNodeResources(node: Node): FieldError[] {
  const errs: FieldError[] = [];
  const zero = quantityOf(0, 'DecimalSI');
  for (const field of ['capacity', 'allocatable'] as const) {
    for (const [name, text] of Object.entries(node.status?.[field] ?? {})) {
      const path = new FieldPath('status').child(field).child(name).text;
      let q: Quantity;
      try { q = parseQuantity(text); } catch { continue; }
      if (compareQuantity(q, zero) < 0) errs.push(fieldError.invalid(path, formatQuantity(q), 'must be greater than or equal to 0'));
      if ((INTEGER_RESOURCES.has(name) || isExtendedResource(name)) && q.nanos % 1_000_000_000n !== 0n) {
        // Quantity prints through its String method: unquoted.
        errs.push({ type: 'FieldValueInvalid', field: path, message: `Invalid value: ${formatQuantity(q)}: must be an integer` });
      }
    }
  }
  return errs;
}

const IPV4_SLOPPY = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** netutils.ParseCIDRSloppy: the IP family of a CIDR, or undefined (IPv4 octets may have leading zeros). */
export function cidrFamily(cidr: string): 4 | 6 | undefined {
  const slash = cidr.indexOf('/');
  if (slash < 0) return undefined;
  const ip = cidr.slice(0, slash);
  const bits = cidr.slice(slash + 1);
  if (!/^[0-9]+$/.test(bits)) return undefined;
  const m = IPV4_SLOPPY.exec(ip);
  if (m) return m.slice(1).every((o) => Number(o) <= 255) && Number(bits) <= 32 ? 4 : undefined;
  if (!ip.includes('%') && isIP(ip) === 6 && Number(bits) <= 128) return 6;
  return undefined;
}

function validatePodCidrs(cidrs: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const path = new FieldPath('spec').child('podCIDRs');
  const families = cidrs.map(cidrFamily);
  validateEach(errs, cidrs, (c, i) => {
    if (families[i] === undefined) errs.push(fieldError.invalid(path.index(i).text, c, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
  });
  if (cidrs.length > 1) {
    const bad = families.findIndex((f) => f === undefined);
    if (bad >= 0) errs.push(internalError(path.text, `invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[${bad}]: <nil> (invalid CIDR address: ${cidrs[bad]})`));
    const dualStack = cidrs.length === 2 && bad < 0 && families[0] !== families[1];
    if (!dualStack) errs.push(rawInvalid(path.text, JSON.stringify(cidrs), 'may specify no more than one CIDR for each IP family'));
  }
  return errs;
}

/** validateNodeConfigSourceSpec: exactly one source, a ConfigMap reference without uid or resourceVersion. */
function validateConfigSource(source: NodeConfigSource, path: FieldPath): FieldError[] {
  const cm = source.configMap;
  if (!cm) return [rawInvalid(path.text, '{"ConfigMap":null}', 'exactly one reference subfield must be non-nil')];
  const errs: FieldError[] = [];
  const at = path.child('configMap');
  if (cm.uid) errs.push(fieldError.forbidden(at.child('uid').text, 'uid must not be set in spec'));
  if (cm.resourceVersion) errs.push(fieldError.forbidden(at.child('resourceVersion').text, 'resourceVersion must not be set in spec'));
  if (!cm.namespace) errs.push(fieldError.required(at.child('namespace').text, 'namespace must be set'));
  if (!cm.name) errs.push(fieldError.required(at.child('name').text, 'name must be set'));
  if (!cm.kubeletConfigKey) errs.push(fieldError.required(at.child('kubeletConfigKey').text, 'kubeletConfigKey must be set'));
  return errs;
}

const META = new FieldPath('metadata');

/** ValidateNode (the generic object-meta part, name included, runs in the store; the core finalizer rule here). */
export function validateNode(node: Node): FieldError[] {
  const errs = [...coreFinalizerErrors(node.metadata), ...validateNodeAnnotations(node.metadata.annotations, META.child('annotations'))];
  if (node.spec?.taints?.length) appendErrors(errs, validateNodeTaints(node.spec.taints, META.child('taints')));
  appendErrors(errs, validateNodeResources(node));
  if (node.spec?.podCIDRs?.length) appendErrors(errs, validatePodCidrs(node.spec.podCIDRs));
  return errs;
}

const addressJson = (a: { type: string; address: string }): string => JSON.stringify({ Type: a.type ?? '', Address: a.address ?? '' });
const CHANGE_FROM_EMPTY_ONLY = 'node updates may not change %s except from "" to valid';

/** ValidateNodeUpdate: what validateNode checks, plus the fields that may only be set once. */
export function validateNodeUpdate(node: Node, old: Node): FieldError[] {
  const errs = [...coreFinalizerErrors(node.metadata), ...validateNodeAnnotations(node.metadata.annotations, META.child('annotations'))];
  appendErrors(errs, validateNodeResources(node));
  const seen = new Set<string>();
  validateEach(errs, node.status?.addresses, (a, i) => {
    const key = `${a.type}\u0000${a.address}`;
    if (seen.has(key)) errs.push(rawDuplicate(new FieldPath('status').child('addresses').index(i).text, addressJson(a)));
    seen.add(key);
  });
  const spec = new FieldPath('spec');
  const oldCidrs = old.spec?.podCIDRs ?? [];
  const newCidrs = node.spec?.podCIDRs ?? [];
  if (oldCidrs.length > 0) {
    const message = CHANGE_FROM_EMPTY_ONLY.replace('%s', 'podCIDR');
    if (oldCidrs.length !== newCidrs.length) errs.push(fieldError.forbidden(spec.child('podCIDRs').text, message));
    else validateEach(errs, oldCidrs, (c, i) => (c !== newCidrs[i] ? [fieldError.forbidden(spec.child('podCIDRs').text, message)] : []));
  }
  const oldProvider = old.spec?.providerID ?? '';
  if (oldProvider !== '' && oldProvider !== (node.spec?.providerID ?? '')) {
    errs.push(fieldError.forbidden(spec.child('providerID').text, CHANGE_FROM_EMPTY_ONLY.replace('%s', 'providerID')));
  }
  if (node.spec?.configSource) appendErrors(errs, validateConfigSource(node.spec.configSource, spec.child('configSource')));
  if (node.spec?.taints?.length) appendErrors(errs, validateNodeTaints(node.spec.taints, META.child('taints')));
  if ((node.spec?.externalID ?? '') !== (old.spec?.externalID ?? '')) errs.push(fieldError.forbidden(spec.child('externalID').text, 'may not be updated'));
  return errs;
}

