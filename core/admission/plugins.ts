// Admission plugin names: the spec's catalogue in upstream's fixed run order (AllOrderedPlugins),
// the default-enabled set, and which plugins are enabled in this process. Each admission plugin
// provides its name as a capability at apply() and, in configure, taps admitMutate/admitValidate
// only if isAdmissionPluginEnabled(), at admissionStage() of its name: the phases then run the
// enabled plugins in upstream's order whatever order the flags named them in.
import type { Host } from '../host.js';

/** Capability kind under which a plugin registers the admission plugin name it implements. */
export const ADMISSION_PLUGIN_KIND = 'admission-plugin';

/** Upstream's AllOrderedPlugins, including NodeDeclaredFeatureValidator of the spec's list. */
export const ADMISSION_ORDER: readonly string[] = [
  'AlwaysAdmit', 'NamespaceAutoProvision', 'NamespaceLifecycle', 'NamespaceExists', 'LimitPodHardAntiAffinityTopology',
  'LimitRanger', 'ServiceAccount', 'NodeRestriction', 'TaintNodesByCondition', 'AlwaysPullImages', 'ImagePolicyWebhook',
  'PodSecurity', 'PodNodeSelector', 'Priority', 'DefaultTolerationSeconds', 'PodTolerationRestriction', 'EventRateLimit',
  'ExtendedResourceToleration', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction', 'DefaultIngressClass', 'DenyServiceExternalIPs', 'PodTopologyLabels', 'NodeDeclaredFeatureValidator',
  'MutatingAdmissionPolicy', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook',
  'ResourceQuota', 'AlwaysDeny',
];

/** Spec 01's default-enabled plugins (those plat does not have are simply absent). */
export const DEFAULT_ENABLED: readonly string[] = [
  'NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'PodSecurity', 'Priority',
  'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'PersistentVolumeClaimResize',
  'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction',
  'DefaultIngressClass', 'PodTopologyLabels', 'NodeDeclaredFeatureValidator', 'MutatingAdmissionPolicy',
  'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota',
];

/**
 * Tap stage of a plugin name: its index in upstream's order. Names outside the catalogue (a
 * third-party plugin's) run after the catalogue's webhooks and quota, before AlwaysDeny.
 */
export function admissionStage(name: string): number {
  const i = ADMISSION_ORDER.indexOf(name);
  return i >= 0 ? i : ADMISSION_ORDER.indexOf('ResourceQuota') + 0.5;
}

interface Enablement { enabled: ReadonlySet<string>; config: ReadonlyMap<string, unknown> }
const enablements = new WeakMap<Host, Enablement>();

/** Set by the admission-control plugin at configure stage -100, before admission plugins look. */
export function setAdmissionEnablement(host: Host, enabled: ReadonlySet<string>, config: ReadonlyMap<string, unknown>): void {
  enablements.set(host, { enabled, config });
}

/**
 * Whether the admission plugin `name` runs. Without the admission-control plugin (a bare host in a
 * test) the default-enabled set applies.
 */
export function isAdmissionPluginEnabled(host: Host, name: string): boolean {
  const e = enablements.get(host);
  return e ? e.enabled.has(name) : DEFAULT_ENABLED.includes(name);
}

/**
 * A plugin's configuration from --admission-control-config-file, if the file gives one. Only an
 * enabled plugin has one: upstream asks the file (ConfigFor) about enabled plugins alone.
 */
export function admissionPluginConfig(host: Host, name: string): unknown {
  return enablements.get(host)?.config.get(name);
}

/**
 * The operations each of upstream's plugins that plat has Handles (its admission.NewHandler): the
 * chain calls a plugin, and its metrics wrapper observes it, for those only. A plugin outside
 * this table (a third party's) is taken to handle all four.
 */
export const HANDLED_OPERATIONS: ReadonlyMap<string, ReadonlySet<string>> = new Map(Object.entries({
  AlwaysAdmit: ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'],
  AlwaysDeny: ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'],
  NamespaceLifecycle: ['CREATE', 'UPDATE', 'DELETE'],
  NodeRestriction: ['CREATE', 'UPDATE', 'DELETE'],
  CertificateApproval: ['UPDATE'],
  CertificateSigning: ['UPDATE'],
  CertificateSubjectRestriction: ['CREATE'],
  MutatingAdmissionWebhook: ['CONNECT', 'CREATE', 'DELETE', 'UPDATE'],
  ValidatingAdmissionWebhook: ['CONNECT', 'CREATE', 'DELETE', 'UPDATE'],
}).map(([name, ops]) => [name, new Set(ops)]));

/**
 * The admission plugin a tap of admitMutate/admitValidate is, if any: a tap named as an admission
 * plugin is that one; a tap named as the plat plugin that provides admission plugins
 * (CertificateSubjectRestrictionAdmission) is the one of them whose place in the order it runs at.
 */
export function admissionPluginOfTap(host: Host, tap: { readonly name: string; readonly stage?: number }): string | undefined {
  if (host.capabilities.has(ADMISSION_PLUGIN_KIND, tap.name)) return tap.name;
  return host.capabilities.names(ADMISSION_PLUGIN_KIND)
    .find((n) => host.capabilities.provider(ADMISSION_PLUGIN_KIND, n) === tap.name && admissionStage(n) === (tap.stage ?? 0));
}
