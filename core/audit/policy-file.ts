// --audit-policy-file read as upstream's policy.LoadPolicyFromFile reads it: YAML or JSON, kind
// Policy of audit.platform/v1 (upstream's audit.k8s.io/v1: named with plat's group in the error,
// as plat's other configuration files do), unknown fields ignored (upstream's decoder is not
// strict), then ValidatePolicy's field errors, all of them as one aggregate, and a policy with no
// rules refused. Every error is `loading audit policy file: <problem>: from file <path>`, upstream's.
import { readFileSync } from 'node:fs';
import { missingKindText, missingVersionText } from '../api/scheme-errors.js';
import { goStrings } from '../api/go-object-meta.js';
import { GO_YAML } from '../api/go-yaml.js';
import { dns1123SubdomainErrors } from '../api/selectors/label-syntax.js';
import { aggregate } from '../aggregate.js';
import { ConfigError } from '../config/config-error.js';
import { loadJsonFile, loadYamlFile } from '../config/file-loaders.js';
import { osErrorText } from '../go-os-error.js';
import { goQuote } from '../go-quote.js';
import { AUDIT_API_VERSION, AUDIT_LEVELS, AUDIT_STAGES, type AuditLevel, type AuditStage } from './event.js';
import type { AuditPolicy, GroupResources, PolicyRule } from './policy.js';

export class AuditPolicyError extends Error {
  override readonly name = 'AuditPolicyError';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function loadPolicyFile(file: string): AuditPolicy {
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch (e) {
    throw new AuditPolicyError(`loading audit policy file: failed to read file path ${goQuote(file)}: ${osErrorText('open', file, e)}`);
  }
  try {
    return loadPolicy(file, text);
  } catch (e) {
    throw new AuditPolicyError(`loading audit policy file: ${(e as Error).message}: from file ${file}`);
  }
}

function loadPolicy(file: string, text: string): AuditPolicy {
  let doc: unknown;
  try {
    doc = file.endsWith('.json') ? loadJsonFile(file, text) : loadYamlFile(file, text, GO_YAML);
  } catch (e) {
    // The loaders name the file themselves; the wrapper names it once more, as upstream's does.
    throw new Error(`failed decoding: ${e instanceof ConfigError ? e.message.replace(`${file}: `, '') : (e as Error).message}`);
  }
  if (!isObj(doc)) throw new Error(`failed decoding: ${missingKindText(text)}`);
  const kind = doc['kind'];
  const apiVersion = doc['apiVersion'];
  if (kind === undefined || kind === null || kind === '') throw new Error(`failed decoding: ${missingKindText(text)}`);
  if (apiVersion === undefined || apiVersion === null || apiVersion === '') throw new Error(`failed decoding: ${missingVersionText(text)}`);
  if (apiVersion !== AUDIT_API_VERSION || kind !== 'Policy') {
    const hint = typeof apiVersion === 'string' && apiVersion.startsWith('audit.k8s.io/')
      ? ` (plat's group is audit.platform: ${goQuote(`audit.platform/${apiVersion.slice('audit.k8s.io/'.length)}`)})` : '';
    throw new Error(`failed decoding: no kind ${goQuote(String(kind))} is registered for version ${goQuote(String(apiVersion))}${hint}`);
  }
  const shape: string[] = [];
  const policy = readPolicy(doc, shape);
  if (shape.length) throw new Error(`failed decoding: ${aggregate(shape)}`);
  const errs = policy.rules.flatMap((r, i) => validateRule(r, `rules[${i}]`));
  if (errs.length) throw new Error(aggregate(errs));
  if (policy.rules.length === 0) throw new Error('loaded illegal policy with 0 rules');
  return policy;
}

function strings(o: Obj, key: string, path: string, problems: string[]): string[] {
  const v = o[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) {
    problems.push(`${path}${key}: must be a list of strings`);
    return [];
  }
  return v as string[];
}

function bool(o: Obj, key: string, path: string, problems: string[]): boolean | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') { problems.push(`${path}${key}: must be true or false`); return undefined; }
  return v;
}

function readPolicy(doc: Obj, problems: string[]): AuditPolicy {
  const rawRules = doc['rules'] ?? [];
  if (!Array.isArray(rawRules)) problems.push('rules: must be a list');
  const rules = (Array.isArray(rawRules) ? rawRules : []).map((r: unknown, i): PolicyRule => {
    const path = `rules[${i}].`;
    if (!isObj(r)) { problems.push(`rules[${i}]: must be an object`); r = {}; }
    const o = r as Obj;
    const level = o['level'];
    if (level !== undefined && level !== null && typeof level !== 'string') problems.push(`${path}level: must be a string`);
    const rawResources = o['resources'] ?? [];
    if (!Array.isArray(rawResources)) problems.push(`${path}resources: must be a list`);
    const resources = (Array.isArray(rawResources) ? rawResources : []).map((g: unknown, j): GroupResources => {
      const gp = `${path}resources[${j}].`;
      if (!isObj(g)) { problems.push(`${path}resources[${j}]: must be an object`); g = {}; }
      const go = g as Obj;
      const group = go['group'] ?? '';
      if (typeof group !== 'string') problems.push(`${gp}group: must be a string`);
      return { group: typeof group === 'string' ? group : '', resources: strings(go, 'resources', gp, problems), resourceNames: strings(go, 'resourceNames', gp, problems) };
    });
    const omitManagedFields = bool(o, 'omitManagedFields', path, problems);
    return {
      level: (typeof level === 'string' ? level : '') as AuditLevel,
      users: strings(o, 'users', path, problems),
      userGroups: strings(o, 'userGroups', path, problems),
      verbs: strings(o, 'verbs', path, problems),
      resources,
      namespaces: strings(o, 'namespaces', path, problems),
      nonResourceURLs: strings(o, 'nonResourceURLs', path, problems),
      omitStages: strings(o, 'omitStages', path, problems) as AuditStage[],
      ...(omitManagedFields !== undefined ? { omitManagedFields } : {}),
    };
  });
  return {
    rules,
    omitStages: strings(doc, 'omitStages', '', problems) as AuditStage[],
    omitManagedFields: bool(doc, 'omitManagedFields', '', problems) ?? false,
  };
}

/** Upstream's validatePolicyRule, its field errors in its order. */
function validateRule(r: PolicyRule, path: string): string[] {
  const errs: string[] = [];
  if ((r.level as string) === '') errs.push(`${path}.level: Required value`);
  else if (!AUDIT_LEVELS.includes(r.level)) errs.push(`${path}.level: Unsupported value: ${goQuote(r.level)}: supported values: ${AUDIT_LEVELS.map((l) => goQuote(l)).join(', ')}`);
  r.nonResourceURLs.forEach((url, i) => {
    if (url === '*') return;
    if (!url.startsWith('/')) errs.push(`${path}.nonResourceURLs[${i}]: Invalid value: ${goQuote(url)}: non-resource URL rules must begin with a '/' character`);
    if (url !== '' && url.slice(0, -1).includes('*')) errs.push(`${path}.nonResourceURLs[${i}]: Invalid value: ${goQuote(url)}: non-resource URL wildcards '*' must be the final character of the rule`);
  });
  for (const gr of r.resources) {
    if (gr.group !== '') {
      const msgs = dns1123SubdomainErrors(gr.group);
      if (msgs.length) errs.push(`${path}.resources.group: Invalid value: ${goQuote(gr.group)}: ${msgs.join(',')}`);
    }
    if (gr.resourceNames.length > 0 && gr.resources.length === 0) errs.push(`${path}.resources.resourceNames: Invalid value: ${goStrings(gr.resourceNames)}: using resourceNames requires at least one resource`);
  }
  r.omitStages.forEach((s, i) => {
    if (!AUDIT_STAGES.includes(s)) errs.push(`${path}.omitStages[${i}]: Invalid value: ${goQuote(s)}: allowed stages are ${AUDIT_STAGES.join(',')}`);
  });
  if (r.nonResourceURLs.length > 0 && (r.resources.length > 0 || r.namespaces.length > 0)) {
    errs.push(`${path}.nonResourceURLs: Invalid value: ${goStrings(r.nonResourceURLs)}: rules cannot apply to both regular resources and non-resource URLs`);
  }
  return errs;
}
