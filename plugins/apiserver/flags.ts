// The API server flags this plugin honours, with the spec's names, types, defaults and sections.
import type { FlagSpec } from '../../core/flags/types.js';
import { ipFlagProblem } from '../../core/flags/ip.js';
import { cipherSuitesFlag } from '../../core/server/tls-settings.js';
import { sniFlag } from '../../core/server/sni.js';
import { CORS_FLAG } from '../../core/server/cors.js';
import { GOAWAY_CHANCE_FLAG } from '../../core/server/goaway.js';
import { HSTS_FLAG } from '../../core/server/hsts.js';
import { MAX_MUTATING_REQUESTS_INFLIGHT_FLAG, MAX_REQUESTS_INFLIGHT_FLAG, PRIORITY_AND_FAIRNESS_FLAG } from '../../core/server/max-in-flight-options.js';
import { encryptionFlags } from './encryption.js';
import { DEBUG_SOCKET_FLAG } from '../../core/server/debug/index.js';
import { RUNTIME_CONFIG_FLAG } from '../../core/registry/runtime-config.js';

const SERVING = 'Serving, network and process';
const LIMITS = 'Limits and timeouts of requests';
const STORE = 'Store, encryption and leadership';
const AUTHZ = 'Authorization options';
const AUDIT = 'Audit options';
const VERSIONS = 'Versions, features, metrics and logging';
const SERVICES = 'Node agent connection, services and aggregation';

/** The store's EnableGarbageCollection; `plat all`'s embedded garbage collector reads it too. */
export const ENABLE_GARBAGE_COLLECTOR_FLAG = 'enable-garbage-collector';

export const apiserverFlags: readonly FlagSpec[] = [
  // Read at configure (core/audit/policy-file.ts); without it nothing is audited, whatever backend is on.
  { name: 'audit-policy-file', type: 'string', default: '', section: AUDIT, help: 'Path to the file that defines the audit policy configuration.' },
  // Its range is checked at configure (core/server/secure-port.ts), as upstream's Validate.
  { name: 'secure-port', type: 'int', default: 6443, section: SERVING, help: 'HTTPS port with authentication and authorization. 0 cannot switch it off.' },
  { name: 'bind-address', type: 'string', default: '0.0.0.0', section: SERVING, help: 'Listen address for the secure port; blank or unspecified (0.0.0.0 or ::) means all interfaces and address families.', validate: ipFlagProblem },
  { name: 'advertise-address', type: 'string', default: '', section: SERVING, help: 'Address advertised to cluster members; must be reachable by the cluster. Blank: --bind-address; if that is unspecified: the host\'s default interface.', validate: ipFlagProblem },
  { name: 'external-hostname', type: 'string', default: '', section: SERVING, help: 'Hostname used when generating externalized URLs (for example discovery documents).' },
  { name: 'cert-dir', type: 'string', default: '/var/run/platform', section: SERVING, help: 'Directory of TLS certificates; ignored when --tls-cert-file and --tls-private-key-file are given.' },
  { name: 'tls-cert-file', type: 'string', default: '', section: SERVING, help: 'Default x509 certificate for HTTPS (CA certificate, if any, concatenated after the server certificate). Without cert and key files, a self-signed pair is generated for the public address and stored in --cert-dir.' },
  { name: 'tls-private-key-file', type: 'string', default: '', section: SERVING, help: 'Private key matching --tls-cert-file.' },
  { name: 'tls-min-version', type: 'string', default: '', section: SERVING, help: 'One of VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13.' },
  cipherSuitesFlag(SERVING, 'Allowed cipher suites; omitted means the runtime defaults.'),
  sniFlag(SERVING, "Pair of certificate and key file paths, optionally suffixed with `:` and a list of domain patterns (FQDNs with optional wildcard prefix segments; IPs allowed). Without patterns the certificate's own names are used. Non-wildcard matches beat wildcard matches; explicit patterns beat extracted names."),
  // Served by core/server/debug/debug-socket.ts, opened at start (debug-socket.ts).
  { name: DEBUG_SOCKET_FLAG, type: 'string', default: '', section: SERVING, help: 'Unprotected (no authentication or authorization) unix socket for profiling.' },
  { name: 'disable-http2-serving', type: 'bool', default: false, section: SERVING, help: 'Disable HTTP/2.' },
  { name: 'shutdown-delay-duration', type: 'duration', default: 0, section: SERVING,
    help: 'Delay before termination; the server serves normally, `/healthz` and `/livez` succeed, `/readyz` fails at once.' },
  { name: 'shutdown-send-retry-after', type: 'bool', default: false, section: SERVING,
    help: 'Keep listening until in-flight non-long-running requests drain; meanwhile reject new requests with status 429, header `Retry-After`, and header `Connection: close`.' },
  { name: 'shutdown-watch-termination-grace-period', type: 'duration', default: 0, section: SERVING,
    help: 'Maximum wait for active watch requests to drain during graceful shutdown. 0 leaves watches open until the drain\'s bound.' },
  // The handler chain's filters (core/server/app.ts); their values are checked after parsing, in
  // ServerRunOptions.Validate's words (core/server/server-run-options.ts), as the durations' are.
  { name: HSTS_FLAG, type: 'strings', section: SERVING, help: 'HSTS directives (comma separated); empty means none are added.' },
  { name: CORS_FLAG, type: 'strings', section: SERVING, help: 'Allowed CORS origins, each possibly a regular expression; empty list disables CORS. Expressions must be anchored at start (`^` or `//` prefix) and end (`$` or `:` suffix).' },
  { name: GOAWAY_CHANCE_FLAG, type: 'float', section: SERVING, help: 'Fraction of requests answered with a connection-close (GOAWAY) to rebalance HTTP/2 clients. Range 0 (off) to 0.02. Not for single-server clusters or those without a load balancer.' },
  { name: 'http2-max-streams-per-connection', type: 'int', default: 0, section: SERVING, help: 'Stream limit given to HTTP/2 clients; 0 uses the runtime default.' },
  { name: 'request-timeout', type: 'duration', default: 60_000, section: LIMITS, help: 'Default request timeout; specific request types may override it.',
    validate: (v) => ((v as number) === 0 ? 'must be greater than 0' : undefined) },
  // The max-in-flight filter's (core/server/max-in-flight-options.ts): negative limits are refused
  // after parsing in ServerRunOptions.Validate's words, the limits with priority and fairness on by plat.
  { name: MAX_REQUESTS_INFLIGHT_FLAG, type: 'int', default: 400, section: LIMITS, help: 'Non-mutating in-flight limit; with priority and fairness enabled it is summed with the mutating limit to give the total (must be positive). Without it, 0 disables the limit.' },
  { name: MAX_MUTATING_REQUESTS_INFLIGHT_FLAG, type: 'int', default: 200, section: LIMITS, help: 'Mutating in-flight limit; see above.' },
  { name: PRIORITY_AND_FAIRNESS_FLAG, type: 'bool', default: true, section: LIMITS, help: 'Replace the max-in-flight handler by one that queues and dispatches with priority and fairness.' },
  // No check, as upstream's: below one is one worker (core/registry/delete-collection.ts).
  { name: 'delete-collection-workers', type: 'int', default: 1, section: LIMITS, help: 'Workers for collection deletion.' },
  { name: 'min-request-timeout', type: 'int', default: 1800, section: LIMITS, help: 'Minimum seconds a handler keeps a request open; honoured only by watch, which picks a randomized value above it.' },
  { name: 'store-prefix', type: 'string', default: '/registry', section: STORE, help: 'Prefix of all resource paths in the store.' },
  // Off, a DELETE sets no `orphan` or `foregroundDeletion` finalizer (core/registry/gc-finalizers.ts).
  { name: ENABLE_GARBAGE_COLLECTOR_FLAG, type: 'bool', default: true, section: SERVICES, help: "Must match the controller manager's flag." },
  { name: 'store-compaction-interval', type: 'duration', default: 300_000, section: STORE, help: 'Compaction request interval; 0 disables.' },
  { name: 'data-dir', type: 'string', default: '/var/lib/plat', section: STORE, help: 'Directory of the embedded LMDB store (used when --store-servers is empty).' },
  // Read at configure, applied to the store at start (encryption.ts).
  ...encryptionFlags,
  { name: 'authorization-mode', type: 'strings', default: ['AlwaysAllow'], section: AUTHZ,
    enum: ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'],
    help: 'Ordered authorizers from AlwaysAllow, AlwaysDeny, ABAC, Webhook, RBAC, Node. Defaults to AlwaysAllow when --authorization-config is not used.' },
  // Checked at configure against the registered group versions (core/registry/runtime-config.ts).
  { name: RUNTIME_CONFIG_FLAG, type: 'configurationMap', section: VERSIONS, help: 'Enable or disable built-in APIs. Supported keys: not shown.' },
];
