// The flags of the controller manager's own HTTPS endpoint that this plugin honours, with spec
// 02's names, types, defaults and section. The rest of the section (address and port sharing)
// stays in the catalogue and is refused at start-up.
import { parseDuration } from '../../core/flags/duration.js';
import type { FlagSpec } from '../../core/flags/types.js';
import { ipFlagProblem } from '../../core/flags/ip.js';
import { cipherSuitesFlag } from '../../core/server/tls-settings.js';
import { sniFlag } from '../../core/server/sni.js';
import { noBlankEntries, REQUESTHEADER_FLAG_NAMES } from '../../core/authn/request-header.js';

const SECTION = 'Serving, authentication and authorization of its own endpoint';

export const FLAGS = {
  securePort: 'secure-port',
  bindAddress: 'bind-address',
  certDir: 'cert-dir',
  tlsCertFile: 'tls-cert-file',
  tlsKeyFile: 'tls-private-key-file',
  tlsMinVersion: 'tls-min-version',
  tlsCipherSuites: 'tls-cipher-suites',
  disableHttp2: 'disable-http2-serving',
  http2MaxStreams: 'http2-max-streams-per-connection',
  clientCaFile: 'client-ca-file',
  authnKubeconfig: 'authentication-kubeconfig',
  authnSkipLookup: 'authentication-skip-lookup',
  authnTolerateLookupFailure: 'authentication-tolerate-lookup-failure',
  authnCacheTtl: 'authentication-token-webhook-cache-ttl',
  authzKubeconfig: 'authorization-kubeconfig',
  authzAlwaysAllowPaths: 'authorization-always-allow-paths',
  authzAllowedTtl: 'authorization-webhook-cache-authorized-ttl',
  authzDeniedTtl: 'authorization-webhook-cache-unauthorized-ttl',
} as const;

const ms = parseDuration;
const nonNegative = (v: unknown) => ((v as number) < 0 ? 'must not be negative' : undefined);

const RH = REQUESTHEADER_FLAG_NAMES;

/**
 * path.NewAuthorizer's rule: a `*` only at the end (a prefix). Its error, which upstream meets in
 * DelegatingAuthorizationOptions.ApplyTo, so only with a port (not a flag parse error).
 */
export function alwaysAllowPathsProblem(paths: readonly string[]): string | undefined {
  const bad = paths.find((p) => { const t = p.replace(/^\//, ''); return t.length > 0 && t.slice(0, -1).includes('*'); });
  return bad === undefined ? undefined : `only trailing * allowed in ${JSON.stringify(bad.replace(/^\//, ''))}`;
}

export const servingFlags: readonly FlagSpec[] = [
  // Its range is checked at configure (core/server/secure-port.ts), as upstream's Validate.
  { name: FLAGS.securePort, type: 'int', default: 10257, section: SECTION, help: 'HTTPS port; 0 disables HTTPS.' },
  { name: FLAGS.bindAddress, type: 'string', default: '0.0.0.0', section: SECTION, help: 'Listen address; blank or unspecified means all interfaces and families.', validate: ipFlagProblem },
  { name: FLAGS.certDir, type: 'string', section: SECTION, help: 'Certificate directory; ignored if cert and key files given.' },
  { name: FLAGS.tlsCertFile, type: 'string', section: SECTION, help: 'Default certificate and key; if absent with HTTPS on, a self-signed pair is generated into --cert-dir.' },
  { name: FLAGS.tlsKeyFile, type: 'string', section: SECTION, help: 'Default certificate and key; if absent with HTTPS on, a self-signed pair is generated into --cert-dir.' },
  { name: FLAGS.tlsMinVersion, type: 'string', section: SECTION, help: 'VersionTLS10, VersionTLS11, VersionTLS12 or VersionTLS13.' },
  cipherSuitesFlag(SECTION, 'Allowed suites; omitted means runtime defaults.'),
  sniFlag(SECTION, "Certificate and key paths optionally suffixed with `:` and domain patterns; same matching precedence as the API server's."),
  { name: FLAGS.disableHttp2, type: 'bool', default: false, section: SECTION, help: 'Disable HTTP/2.' },
  { name: FLAGS.http2MaxStreams, type: 'int', section: SECTION, help: '0 uses runtime default.', validate: nonNegative },
  { name: FLAGS.clientCaFile, type: 'string', section: SECTION, help: 'Client certificates signed by these authorities authenticate as their CommonName.' },
  { name: FLAGS.authnKubeconfig, type: 'string', section: SECTION, help: 'Connection settings file to the core server with rights to create token reviews; optional; empty means all token requests are anonymous and no client CA is looked up.' },
  { name: FLAGS.authnSkipLookup, type: 'bool', section: SECTION, help: 'If false, the authentication connection file is used to look up missing authentication configuration.' },
  { name: FLAGS.authnTolerateLookupFailure, type: 'bool', section: SECTION, help: 'If true, lookup failures are not fatal; may result in all requests treated anonymous.' },
  { name: FLAGS.authnCacheTtl, type: 'duration', default: ms('10s'), section: SECTION, help: 'Cache of webhook token authenticator responses.' },
  { name: FLAGS.authzKubeconfig, type: 'string', section: SECTION, help: 'Connection settings file with rights to create access reviews; optional; empty means all requests not skipped are forbidden.' },
  { name: FLAGS.authzAlwaysAllowPaths, type: 'strings', default: ['/healthz', '/readyz', '/livez'], section: SECTION, help: 'Paths authorized without contacting the core server.' },
  { name: FLAGS.authzAllowedTtl, type: 'duration', default: ms('10s'), section: SECTION, help: 'Cache of authorized responses.' },
  { name: FLAGS.authzDeniedTtl, type: 'duration', default: ms('10s'), section: SECTION, help: 'Cache of unauthorized responses.' },
  { name: RH.clientCaFile, type: 'string', section: SECTION, help: 'Root bundle verifying client certificates before trusting identity headers.' },
  { name: RH.allowedNames, type: 'strings', section: SECTION, help: 'Allowed certificate common names; empty allows any validated by the CA file.', validate: noBlankEntries(RH.allowedNames) },
  { name: RH.usernameHeaders, type: 'strings', default: ['x-remote-user'], section: SECTION, help: 'Request headers inspected for usernames.', validate: noBlankEntries(RH.usernameHeaders) },
  { name: RH.groupHeaders, type: 'strings', default: ['x-remote-group'], section: SECTION, help: 'Request headers inspected for groups.', validate: noBlankEntries(RH.groupHeaders) },
  { name: RH.extraHeadersPrefix, type: 'strings', default: ['x-remote-extra-'], section: SECTION, help: 'Request header prefixes inspected for extra user information.', validate: noBlankEntries(RH.extraHeadersPrefix) },
  { name: RH.uidHeaders, type: 'strings', section: SECTION, help: '`X-Remote-Uid` suggested; requires feature RemoteRequestHeaderUID.', validate: noBlankEntries(RH.uidHeaders) },
];
