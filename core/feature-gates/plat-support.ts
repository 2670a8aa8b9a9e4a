// Gate states plat's API server and controller manager cannot run with: a gate that would turn on
// an API or a mechanism plat does not have, or turn off a behaviour plat cannot leave out. Refused
// at start-up, naming the gate, rather than accepted and ignored. Every other gate is accepted as
// upstream accepts it: those plat honours change what it does (README, "Feature gates"), the rest
// are about things plat does not serve (pods, volumes, the scheduler, the kubelet).

export interface RefusedState { readonly value: boolean; readonly reason: string }

export const REFUSED_GATE_STATES: Readonly<Record<string, RefusedState>> = {
  AllowUnsafeMalformedObjectDeletion: { value: true, reason: 'plat has no unsafe deletion of objects that cannot be decoded (ignoreStoreReadErrorWithClusterBreakingPotential)' },
  AnonymousAuthConfigurableEndpoints: { value: false, reason: 'plat always reads the anonymous authenticator\'s conditions from --authentication-config' },
  AuthorizeWithSelectors: { value: false, reason: 'plat always hands field and label selectors to the authorizers (SubjectAccessReview, webhook)' },
  CBORServingAndStorage: { value: true, reason: 'plat neither serves nor stores CBOR' },
  ClusterTrustBundle: { value: true, reason: 'plat serves no ClusterTrustBundle API and has no ClusterTrustBundleAttest admission' },
  ClientsPreferCBOR: { value: true, reason: 'plat\'s clients (the controller manager\'s, the node agent\'s) send and accept JSON only' },
  ComponentFlagz: { value: true, reason: 'plat serves no /flagz endpoint' },
  ComponentStatusz: { value: true, reason: 'plat serves no /statusz endpoint' },
  CoordinatedLeaderElection: { value: true, reason: 'plat has no coordinated leader election (LeaseCandidate API and its controller)' },
  LoggingAlphaOptions: { value: true, reason: 'plat implements neither alpha logging option (--log-text-split-stream, --log-text-info-buffer-size)' },
  MultiCIDRServiceAllocator: { value: true, reason: 'plat has no ServiceCIDR / IPAddress allocator' },
  MutatingAdmissionPolicy: { value: true, reason: 'plat serves no MutatingAdmissionPolicy API' },
  StorageVersionAPI: { value: true, reason: 'plat serves no StorageVersion API' },
  StorageVersionMigrator: { value: true, reason: 'plat serves no StorageVersionMigration API' },
  UnknownVersionInteroperabilityProxy: { value: true, reason: 'plat does not proxy requests to peer API servers' },
  WatchList: { value: false, reason: 'plat always serves watches with sendInitialEvents' },
};

/** The refusals for the gates in force (every name given, AllAlpha / AllBeta expanded), one line each. */
export function refusedGates(explicit: ReadonlyMap<string, boolean>): string[] {
  const out: string[] = [];
  for (const [name, value] of [...explicit].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    const refused = Object.hasOwn(REFUSED_GATE_STATES, name) ? REFUSED_GATE_STATES[name] : undefined;
    if (refused && refused.value === value) out.push(`--feature-gates: ${name}=${value} is not supported: ${refused.reason}`);
  }
  return out;
}
