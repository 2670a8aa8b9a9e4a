// Every option of the API server as the spec lists them (01-csr-api-and-apiserver.md, "API server
// options"), so that --help and the accepted flags match the spec whichever plugins implement
// them. Defaults are the spec's, already in the parsed form (durations in milliseconds); help
// texts are the spec's Effect column; sections are its table headings. `--version` and
// `-h, --help` belong to the host and are not listed here.
import type { FlagSpec, FlagType } from '../../core/flags/types.js';
import { parseDuration } from '../../core/flags/duration.js';

/** The spec's table headings, in the spec's order. */
export const APISERVER_FLAG_SECTIONS = [
  'Admission',
  'Serving, network and process',
  'Limits and timeouts of requests',
  'Authentication options',
  'Authorization options',
  'Audit options',
  'Store, encryption and leadership',
  'Node agent connection, services and aggregation',
  'Versions, features, metrics and logging',
] as const;

type Section = (typeof APISERVER_FLAG_SECTIONS)[number];
type Extra = Pick<FlagSpec, 'shorthand' | 'deprecated' | 'unsupported' | 'enum' | 'validate'>;
type Row = readonly [name: string, type: FlagType, def: unknown, help: string, extra?: Extra];


function section(title: Section, rows: readonly Row[]): FlagSpec[] {
  return rows.map(([name, type, def, help, extra]) =>
    Object.freeze({ name, type, help, section: title, ...(def !== undefined ? { default: def } : {}), ...extra }),
  );
}

/** Durations are written as the spec writes them and stored in milliseconds. */
const ms = parseDuration;

const WEBHOOK_VERSIONS = ['v1', 'v1beta1'];
const JOSE_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'];
const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'];
const AUDIT_MODES = ['batch', 'blocking', 'blocking-strict'];
const MEDIA_TYPES = ['application/json', 'application/yaml', 'application/vnd.platform.protobuf'];
const ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

const nonNegative = (v: unknown) => (typeof v === 'number' && v >= 0 ? undefined : 'must not be negative');
/** A TCP port; `zero` says why 0 is refused, or undefined when 0 is allowed (meaning "off"). */
const port = (zero: string | undefined) => (v: unknown) => {
  if (typeof v !== 'number' || v < 0 || v > 65535) return 'must be a port number between 0 and 65535';
  return v === 0 && zero !== undefined ? zero : undefined;
};
const portRange = (v: unknown) => {
  const m = typeof v === 'string' ? /^(\d+)-(\d+)$/.exec(v) : null;
  if (m === null) return v === '' ? undefined : 'must be a port range N1-N2';
  const [lo, hi] = [Number(m[1]), Number(m[2])];
  return lo > 0 && lo <= hi && hi <= 65535 ? undefined : 'must be a port range N1-N2 with 0 < N1 <= N2 <= 65535';
};

export const apiserverFlagCatalogue: readonly FlagSpec[] = Object.freeze([
  ...section('Admission', [
    ['admission-control', 'strings', undefined, 'Plugin list; deprecated in favour of the enable and disable options.', { deprecated: 'use --enable-admission-plugins or --disable-admission-plugins instead; it will be removed in a future version' }],
    ['admission-control-config-file', 'string', undefined, 'File with admission control configuration.'],
    ['enable-admission-plugins', 'strings', undefined, 'Plugins enabled in addition to the default-enabled set. Order irrelevant.'],
    ['disable-admission-plugins', 'strings', undefined, 'Plugins disabled although in the default-enabled set. Order irrelevant.'],
  ]),
  ...section('Serving, network and process', [
    ['secure-port', 'int', 6443, 'HTTPS port with authentication and authorization. 0 cannot switch it off.'],
    ['bind-address', 'string', '0.0.0.0', 'Listen address for the secure port; blank or unspecified (0.0.0.0 or ::) means all interfaces and address families.'],
    ['advertise-address', 'string', undefined, "Address advertised to cluster members; must be reachable by the cluster. Blank: --bind-address; if that is unspecified: the host's default interface."],
    ['external-hostname', 'string', undefined, 'Hostname used when generating externalized URLs (for example discovery documents).'],
    ['cert-dir', 'string', '/var/run/platform', 'Directory of TLS certificates; ignored when --tls-cert-file and --tls-private-key-file are given.'],
    ['tls-cert-file', 'string', undefined, 'Default x509 certificate for HTTPS (CA certificate, if any, concatenated after the server certificate). Without cert and key files, a self-signed pair is generated for the public address and stored in --cert-dir.'],
    ['tls-private-key-file', 'string', undefined, 'Private key matching --tls-cert-file.'],
    ['tls-sni-cert-key', 'stringArray', undefined, "Pair of certificate and key file paths, optionally suffixed with `:` and a list of domain patterns (FQDNs with optional wildcard prefix segments; IPs allowed). Without patterns the certificate's own names are used. Non-wildcard matches beat wildcard matches; explicit patterns beat extracted names."],
    ['tls-cipher-suites', 'strings', undefined, 'Allowed cipher suites; omitted means the runtime defaults.'],
    ['tls-min-version', 'string', undefined, 'One of VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13.'],
    ['strict-transport-security-directives', 'strings', undefined, 'HSTS directives (comma separated); empty means none are added.'],
    ['cors-allowed-origins', 'strings', undefined, 'Allowed CORS origins, each possibly a regular expression; empty list disables CORS. Expressions must be anchored at start (`^` or `//` prefix) and end (`$` or `:` suffix).'],
    ['disable-http2-serving', 'bool', false, 'Disable HTTP/2.'],
    ['http2-max-streams-per-connection', 'int', undefined, 'Stream limit given to HTTP/2 clients; 0 uses the runtime default.', { validate: nonNegative }],
    ['goaway-chance', 'float', undefined, 'Fraction of requests answered with a connection-close (GOAWAY) to rebalance HTTP/2 clients. Range 0 (off) to 0.02. Not for single-server clusters or those without a load balancer.'],
    ['permit-address-sharing', 'bool', false, 'Use address reuse (SO_REUSEADDR) when binding.'],
    ['permit-port-sharing', 'bool', false, 'Use port reuse (SO_REUSEPORT) when binding.'],
    ['max-connection-bytes-per-sec', 'int', undefined, 'If non-zero, throttle each user connection (long-running requests only).', { validate: nonNegative }],
    ['enable-logs-handler', 'bool', undefined, "Install a `/logs` handler for the server's logs.", { deprecated: 'the /logs handler will be removed in a future version' }],
    ['profiling', 'bool', true, 'Serve profiling at `host:port/debug/pprof/`.'],
    ['contention-profiling', 'bool', undefined, 'Block profiling, when profiling is enabled. (not supported: V8 has no block profile; only false is accepted)'],
    ['debug-socket-path', 'string', undefined, 'Unprotected (no authentication or authorization) unix socket for profiling.'],
    ['shutdown-delay-duration', 'duration', undefined, 'Delay before termination; the server serves normally, `/healthz` and `/livez` succeed, `/readyz` fails at once.'],
    ['shutdown-send-retry-after', 'bool', undefined, 'Keep listening until in-flight non-long-running requests drain; meanwhile reject new requests with status 429, header `Retry-After`, and header `Connection: close`.'],
    ['shutdown-watch-termination-grace-period', 'duration', undefined, 'Maximum wait for active watch requests to drain during graceful shutdown.'],
    ['livez-grace-period', 'duration', undefined, 'Maximum startup time during which `/livez` assumes unfinished post-start hooks will succeed.'],
    ['storage-initialization-timeout', 'duration', ms('1m0s'), 'Maximum wait for storage initialization before declaring ready.'],
  ]),
  ...section('Limits and timeouts of requests', [
    ['max-requests-inflight', 'int', 400, 'Non-mutating in-flight limit; with priority and fairness enabled it is summed with the mutating limit to give the total (must be positive). Without it, 0 disables the limit.'],
    ['max-mutating-requests-inflight', 'int', 200, 'Mutating in-flight limit; see above.'],
    ['enable-priority-and-fairness', 'bool', true, 'Replace the max-in-flight handler by one that queues and dispatches with priority and fairness.'],
    ['request-timeout', 'duration', ms('1m0s'), 'Default request timeout; specific request types may override it.'],
    ['min-request-timeout', 'int', 1800, 'Minimum seconds a handler keeps a request open; honoured only by watch, which picks a randomized value above it.'],
    ['delete-collection-workers', 'int', 1, 'Workers for collection deletion.'],
    ['default-not-ready-toleration-seconds', 'int', 300, 'tolerationSeconds of the default not-ready NoExecute toleration added to pods lacking one.'],
    ['default-unreachable-toleration-seconds', 'int', 300, 'Same for unreachable NoExecute.'],
    ['event-ttl', 'duration', ms('1h0m0s'), 'Event retention.'],
    ['lease-reuse-duration-seconds', 'int', 60, 'Seconds each lease is reused; too small a value may hurt storage performance.'],
    ['watch-cache', 'bool', true, 'Enable watch caching.'],
    ['watch-cache-sizes', 'strings', undefined, 'Entries `resource[.group]#size` (lowercase plural resource, group omitted for the core group); only 0 (disable caching for that resource) is meaningful, non-zero values all mean not disabled. Only for built-in resources; consulted only with the watch cache on.'],
  ]),
  ...section('Authentication options', [
    ['anonymous-auth', 'bool', true, 'Requests not rejected by another method are anonymous: username `system:anonymous`, group `system:unauthenticated`.'],
    ['authentication-config', 'string', undefined, 'Authentication configuration file (JWT and anonymous authenticators); requires feature gate StructuredAuthenticationConfiguration. Mutually exclusive with the --oidc-* options if the file configures the JWT authenticator, and with --anonymous-auth if it configures the anonymous authenticator.'],
    ['authentication-token-webhook-config-file', 'string', undefined, 'Webhook configuration (connection-settings file format) for bearer-token authentication.'],
    ['authentication-token-webhook-cache-ttl', 'duration', ms('2m0s'), 'Cache time of webhook token authenticator responses.'],
    ['authentication-token-webhook-version', 'string', 'v1beta1', 'API version of the token review object sent to and expected from the webhook.', { enum: WEBHOOK_VERSIONS }],
    ['client-ca-file', 'string', undefined, "Client certificates signed by these authorities authenticate as the certificate's CommonName."],
    ['token-auth-file', 'string', undefined, 'Static token file securing the secure port.'],
    ['enable-bootstrap-token-auth', 'bool', undefined, 'Allow secrets of type `bootstrap.platform/token` in namespace `plat-system` for TLS bootstrap authentication.'],
    ['api-audiences', 'strings', undefined, 'API identifiers; service account tokens must be bound to at least one. Defaults to the --service-account-issuer URLs when they are set and this is not.'],
    ['oidc-issuer-url', 'string', undefined, 'Issuer URL, HTTPS only; used to verify the identity JWT.'],
    ['oidc-client-id', 'string', undefined, 'Client ID; must be set when the issuer URL is set.'],
    ['oidc-ca-file', 'string', undefined, "CA file for the issuer's certificate; otherwise the host's root set."],
    ['oidc-username-claim', 'string', 'sub', 'Claim used as user name (claims other than sub are not guaranteed unique or immutable; experimental).'],
    ['oidc-username-prefix', 'string', undefined, 'Prefix for usernames; if absent, username claims other than `email` get the issuer URL as prefix; value `-` means no prefix.'],
    ['oidc-groups-claim', 'string', undefined, 'Custom claim for groups; string or array of strings (experimental).'],
    ['oidc-groups-prefix', 'string', undefined, 'Prefix for all groups.'],
    ['oidc-required-claim', 'map', undefined, 'Claims that must be present in the ID token with the given value.'],
    ['oidc-signing-algs', 'strings', ['RS256'], 'Allowed JOSE algorithms: RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512 (RFC 7518 section 3.1).', { enum: JOSE_ALGORITHMS }],
    ['requestheader-client-ca-file', 'string', undefined, 'Root bundle verifying client certificates before trusting identity headers.'],
    ['requestheader-allowed-names', 'strings', undefined, 'Certificate common names allowed to supply identity headers; empty allows any certificate validated by the CA file.'],
    ['requestheader-username-headers', 'strings', undefined, 'Headers inspected for usernames (`X-Remote-User` is common).'],
    ['requestheader-group-headers', 'strings', undefined, 'Headers inspected for groups (`X-Remote-Group` suggested).'],
    ['requestheader-extra-headers-prefix', 'strings', undefined, 'Header prefixes inspected (`X-Remote-Extra-` suggested).'],
    ['requestheader-uid-headers', 'strings', undefined, 'Headers inspected for UIDs (`X-Remote-Uid` suggested); requires feature RemoteRequestHeaderUID.'],
    ['proxy-client-cert-file', 'string', undefined, 'Client certificate proving the identity of the aggregator or API server when it calls out (proxying to extension servers, webhook admission); expected to be signed by the CA in --requestheader-client-ca-file.'],
    ['proxy-client-key-file', 'string', undefined, 'Private key of that certificate.'],
    ['service-account-issuer', 'strings', undefined, 'Issuer identifier asserted in the `iss` claim; first value issues tokens, all are accepted. Should be an https URL able to serve `{issuer}/.well-known/openid-configuration`; if not a valid URI the issuer discovery feature stays disabled.'],
    ['service-account-jwks-uri', 'string', undefined, 'Overrides the key-set URI in the discovery document served at `/.well-known/openid-configuration`.'],
    ['service-account-key-file', 'strings', undefined, 'PEM x509 RSA or ECDSA private or public keys verifying service account tokens; default --tls-private-key-file; required when --service-account-signing-key-file is given.'],
    ['service-account-signing-key-file', 'string', undefined, 'Current private key of the token issuer.'],
    ['service-account-signing-endpoint', 'string', undefined, 'Socket of an external JWT signer; exclusive with the two key-file options; requires feature ExternalServiceAccountTokenSigner.'],
    ['service-account-lookup', 'bool', true, 'Validate that service account tokens exist in the store.'],
    ['service-account-max-token-expiration', 'duration', undefined, 'Maximum validity of issued tokens; longer requests get this value.'],
    ['service-account-extend-token-expiration', 'bool', true, 'Extend admission-injected projected tokens up to 1 year, ignoring the max expiration.'],
  ]),
  ...section('Authorization options', [
    ['authorization-mode', 'strings', undefined, 'Ordered authorizers from AlwaysAllow, AlwaysDeny, ABAC, Webhook, RBAC, Node. Defaults to AlwaysAllow when --authorization-config is not used.', { enum: AUTHORIZATION_MODES }],
    ['authorization-config', 'string', undefined, 'Authorization configuration file for the authorizer chain; requires feature StructuredAuthorizationConfiguration; exclusive with --authorization-mode and the --authorization-webhook-* options.'],
    ['authorization-policy-file', 'string', undefined, 'Line-by-line JSON policy for ABAC mode.'],
    ['authorization-webhook-config-file', 'string', undefined, 'Webhook configuration for Webhook mode.'],
    ['authorization-webhook-version', 'string', 'v1beta1', 'API version of the access review object exchanged with the webhook.', { enum: WEBHOOK_VERSIONS }],
    ['authorization-webhook-cache-authorized-ttl', 'duration', ms('5m0s'), 'Cache of authorized responses.'],
    ['authorization-webhook-cache-unauthorized-ttl', 'duration', ms('30s'), 'Cache of unauthorized responses.'],
  ]),
  ...section('Audit options', [
    ['audit-policy-file', 'string', undefined, 'Audit policy file.'],
    ['audit-log-path', 'string', undefined, 'Log all requests to this file; `-` is standard output.'],
    ['audit-log-format', 'string', 'json', '`legacy` (one-line text) or `json`.', { enum: ['json', 'legacy'] }],
    ['audit-log-mode', 'string', 'blocking', '`batch`, `blocking` or `blocking-strict`.', { enum: AUDIT_MODES }],
    ['audit-log-version', 'string', 'audit.platform/v1', 'Group and version of serialized events.'],
    ['audit-log-maxage', 'int', undefined, 'Days to retain rotated files.'],
    ['audit-log-maxbackup', 'int', undefined, 'Rotated files to retain; 0 means no restriction.'],
    ['audit-log-maxsize', 'int', undefined, 'Megabytes before rotation.'],
    ['audit-log-compress', 'bool', undefined, 'gzip rotated files.'],
    ['audit-log-batch-buffer-size', 'int', 10000, 'Batch-mode buffer.'],
    ['audit-log-batch-max-size', 'int', 1, 'Batch-mode maximum batch.'],
    ['audit-log-batch-max-wait', 'duration', undefined, 'Wait before forcing an incomplete batch.'],
    ['audit-log-batch-throttle-enable', 'bool', undefined, 'Batch throttling.'],
    ['audit-log-batch-throttle-qps', 'float32', undefined, 'Average batches per second.'],
    ['audit-log-batch-throttle-burst', 'int', undefined, 'Simultaneous requests if throttle QPS was unused.'],
    ['audit-log-truncate-enabled', 'bool', undefined, 'Event and batch truncation.'],
    ['audit-log-truncate-max-batch-size', 'int', 10485760, 'Larger batches are split.'],
    ['audit-log-truncate-max-event-size', 'int', 102400, 'Larger events lose request and response, then are discarded if still too large.'],
    ['audit-webhook-config-file', 'string', undefined, 'Connection-settings file for the audit webhook.'],
    ['audit-webhook-mode', 'string', 'batch', '`batch`, `blocking`, `blocking-strict`.', { enum: AUDIT_MODES }],
    ['audit-webhook-version', 'string', 'audit.platform/v1', 'Serialization group and version.'],
    ['audit-webhook-initial-backoff', 'duration', ms('10s'), 'Wait before retrying the first failed request.'],
    ['audit-webhook-batch-buffer-size', 'int', 10000, 'Batch buffer.'],
    ['audit-webhook-batch-max-size', 'int', 400, 'Maximum batch.'],
    ['audit-webhook-batch-max-wait', 'duration', ms('30s'), 'Forced write wait.'],
    ['audit-webhook-batch-throttle-enable', 'bool', true, 'Throttling.'],
    ['audit-webhook-batch-throttle-qps', 'float32', 10, 'Batches per second.'],
    ['audit-webhook-batch-throttle-burst', 'int', 15, 'Burst.'],
    ['audit-webhook-truncate-enabled', 'bool', undefined, 'Truncation.'],
    ['audit-webhook-truncate-max-batch-size', 'int', 10485760, 'As for the log backend.'],
    ['audit-webhook-truncate-max-event-size', 'int', 102400, 'As for the log backend.'],
  ]),
  ...section('Store, encryption and leadership', [
    ['store-servers', 'strings', undefined, 'Store servers as `scheme://ip:port`.'],
    ['store-servers-overrides', 'strings', undefined, 'Per-resource overrides `group/resource#servers` (servers separated by semicolons); built-in resources only.'],
    ['store-cafile', 'string', undefined, 'TLS files for store communication.'],
    ['store-certfile', 'string', undefined, 'TLS files for store communication.'],
    ['store-keyfile', 'string', undefined, 'TLS files for store communication.'],
    ['store-prefix', 'string', '/registry', 'Prefix of all resource paths in the store.'],
    ['store-compaction-interval', 'duration', ms('5m0s'), 'Compaction request interval; 0 disables.'],
    ['store-count-metric-poll-period', 'duration', ms('1m0s'), 'Polling of resource counts; 0 disables.'],
    ['store-db-metric-poll-interval', 'duration', ms('30s'), 'Polling of store size metric; 0 disables.'],
    ['store-healthcheck-timeout', 'duration', ms('2s'), 'Health check timeout.'],
    ['store-readycheck-timeout', 'duration', ms('2s'), 'Readiness check timeout.'],
    ['storage-backend', 'string', undefined, 'Backend; `store3` is the default option.', { enum: ['store3'] }],
    ['storage-media-type', 'string', 'application/vnd.platform.protobuf', 'Stored media type: application/json, application/yaml, or protobuf; some resources may ignore it.', { enum: MEDIA_TYPES }],
    ['encryption-provider-config', 'string', undefined, 'Encryption provider configuration for secrets at rest.'],
    ['encryption-provider-config-automatic-reload', 'bool', undefined, 'Reload on file change; disables unique identification of distinct KMS plugins via health endpoints.'],
    ['endpoint-reconciler-type', 'string', 'lease', '`master-count` (deprecated), `lease`, `none`.', { enum: ['master-count', 'lease', 'none'] }],
    ['coordinated-leadership-lease-duration', 'duration', ms('15s'), 'Lease of coordinated leader election.'],
    ['coordinated-leadership-renew-deadline', 'duration', ms('10s'), 'Renew deadline.'],
    ['coordinated-leadership-retry-period', 'duration', ms('2s'), 'Retry period.'],
    // plat's own: the embedded store that replaces an external one for single-server set-ups.
    ['data-dir', 'string', '/var/lib/plat', 'Directory of the embedded LMDB store (used when --store-servers is empty).'],
  ]),
  ...section('Node agent connection, services and aggregation', [
    ['nodeagent-certificate-authority', 'string', undefined, 'CA certificate file.'],
    ['nodeagent-client-certificate', 'string', undefined, 'Client TLS cert and key.'],
    ['nodeagent-client-key', 'string', undefined, 'Client TLS cert and key.'],
    ['nodeagent-preferred-address-types', 'strings', ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'], 'Preferred node address types.', { enum: ADDRESS_TYPES }],
    ['nodeagent-timeout', 'duration', ms('5s'), 'Timeout of node agent operations.'],
    ['platform-service-node-port', 'int', undefined, "If non-zero, the API server's own service is a NodePort service on this port; if 0, ClusterIP.", { validate: port(undefined) }],
    ['service-cluster-ip-range', 'string', undefined, 'CIDR for service cluster IPs; must not overlap node or pod ranges; at most two (dual-stack) CIDRs.'],
    ['service-node-port-range', 'string', '30000-32767', 'Inclusive NodePort range; must not overlap ephemeral ports.', { validate: portRange }],
    ['enable-aggregator-routing', 'bool', undefined, 'Route aggregator requests to endpoint IPs instead of cluster IP.'],
    ['aggregator-reject-forwarding-redirect', 'bool', true, 'Reject forwarded redirect responses.'],
    ['enable-garbage-collector', 'bool', true, "Must match the controller manager's flag."],
    ['egress-selector-config-file', 'string', undefined, 'Egress selector configuration file.'],
    ['tracing-config-file', 'string', undefined, 'Tracing configuration file.'],
    ['peer-advertise-ip', 'string', undefined, 'With feature UnknownVersionInteroperabilityProxy: address peers use to proxy version-skewed requests; multi-server clusters only.'],
    ['peer-advertise-port', 'string', undefined, 'With feature UnknownVersionInteroperabilityProxy: address peers use to proxy version-skewed requests; multi-server clusters only.'],
    ['peer-ca-file', 'string', undefined, "Verifies peers' serving certificates (same feature)."],
    ['allow-privileged', 'bool', false, 'Allow privileged containers.'],
  ]),
  ...section('Versions, features, metrics and logging', [
    ['feature-gates', 'map', undefined, 'Feature gates.'],
    ['emulated-version', 'strings', undefined, 'Versions whose capabilities components emulate.'],
    ['min-compatibility-version', 'strings', undefined, 'Minimum control-plane version to stay compatible with.'],
    ['emulation-forward-compatible', 'bool', undefined, 'Auto-enable future, higher-stability versions of beta-or-later APIs enabled at the emulation version; only true when emulation version is below the binary version.'],
    ['runtime-config', 'configurationMap', undefined, 'Enable or disable built-in APIs. Supported keys: not shown.'],
    ['runtime-config-emulation-forward-compatible', 'bool', undefined, 'If true, install enabled group/versions even if introduced after the emulation version; if false the server fails to start on such versions; only true when emulation version is below the binary version.'],
    ['allow-metric-labels', 'stringToString', undefined, 'Allow-list keyed `<MetricName>,<LabelName>` with comma-separated allowed values.'],
    ['allow-metric-labels-manifest', 'string', undefined, 'File with the same format; the flag overrides it.'],
    ['disabled-metrics', 'strings', undefined, 'Fully qualified metrics to disable; beats showing hidden metrics.'],
    ['show-hidden-metrics-for-version', 'string', undefined, 'Previous minor version `<major>.<minor>` whose hidden metrics are shown.'],
    ['log-flush-frequency', 'duration', ms('5s'), 'Maximum interval between log flushes.'],
    ['logging-format', 'string', 'text', 'Only `text` is permitted.', { enum: ['text'] }],
    ['log-text-info-buffer-size', 'quantity', undefined, 'Alpha; buffering of info messages with split streams; default 0 (off); needs feature LoggingAlphaOptions.'],
    ['log-text-split-stream', 'bool', undefined, 'Alpha; errors to stderr, info to stdout; needs LoggingAlphaOptions.'],
    ['v', 'level', undefined, 'Log verbosity.', { shorthand: 'v' }],
    ['vmodule', 'string', undefined, 'Per-file verbosity (text format).'],
  ]),
]);
