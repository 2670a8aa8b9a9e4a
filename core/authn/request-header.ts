// Request-header authentication (upstream's headerrequest behind a dynamic CA verifier): a front
// proxy that authenticated the user itself passes the identity on in headers (X-Remote-User,
// X-Remote-Group, X-Remote-Extra-*), believed only from a connection whose client certificate
// verifies against the request-header CA bundle and, when allowed names are set, whose CommonName
// is listed. Shared by the API server's authenticator and the delegating one of the controller
// manager. A presented certificate that fails either check is an error of this authenticator.
import type { FlagSet } from '../flags/types.js';
import type { Logger } from '../log.js';
import { headerValues, identityFromHeaders, type IdentityHeaders } from './identity-headers.js';
import type { AuthenticationRequest, UserInfo } from './user.js';
import { authenticateCertificateChain, readCaBundle, type Certificate } from './x509/index.js';

/** The --requestheader-* flags, named alike by the API server and the controller manager. */
export const REQUESTHEADER_FLAG_NAMES = {
  clientCaFile: 'requestheader-client-ca-file',
  allowedNames: 'requestheader-allowed-names',
  usernameHeaders: 'requestheader-username-headers',
  groupHeaders: 'requestheader-group-headers',
  extraHeadersPrefix: 'requestheader-extra-headers-prefix',
  uidHeaders: 'requestheader-uid-headers',
} as const;

/** Upstream's checkForWhiteSpaceOnly, as the check of a list flag. */
export const noBlankEntries = (flag: string) => (value: unknown): string | undefined =>
  (value as string[]).some((v) => v.trim() === '') ? `empty value in "${flag}"` : undefined;

/** The identity header names the flags give, each entry trimmed. */
export function headerNamesFromFlags(flags: FlagSet): IdentityHeaders {
  const list = (name: string) => flags.get<string[]>(name).map((v) => v.trim());
  return {
    username: list(REQUESTHEADER_FLAG_NAMES.usernameHeaders),
    uid: list(REQUESTHEADER_FLAG_NAMES.uidHeaders),
    group: list(REQUESTHEADER_FLAG_NAMES.groupHeaders),
    extraPrefixes: list(REQUESTHEADER_FLAG_NAMES.extraHeadersPrefix),
  };
}

export interface RequestHeaderSettings {
  readonly roots: readonly Certificate[];
  /** Empty: any certificate the roots verify. */
  readonly allowedNames: readonly string[];
  readonly names: IdentityHeaders;
}

export type FrontProxyOutcome =
  | { readonly result: 'none' }
  | { readonly result: 'user'; readonly user: UserInfo; readonly proxy: string }
  | { readonly result: 'reject'; readonly reason: string };

/**
 * 'none': no client certificate, or a front proxy that named no user (no opinion); 'reject': a
 * certificate the request-header CA does not verify, or whose CommonName is not allowed.
 */
export function authenticateFrontProxy(
  peerChain: readonly Buffer[],
  req: Pick<AuthenticationRequest, 'headers' | 'rawHeaders'>,
  s: RequestHeaderSettings,
  now: Date,
): FrontProxyOutcome {
  if (peerChain.length === 0) return { result: 'none' };
  const outcome = authenticateCertificateChain(peerChain, s.roots, now);
  if (outcome.result === 'reject') return outcome;
  // 'none' here means a verified certificate without CommonName.
  const cn = outcome.result === 'user' ? outcome.user.name : '';
  if (s.allowedNames.length > 0 && !s.allowedNames.includes(cn)) {
    return { result: 'reject', reason: `x509: subject with cn=${cn} is not in the allowed list` };
  }
  const user = identityFromHeaders(headerValues(req), s.names);
  return user ? { result: 'user', user, proxy: cn } : { result: 'none' };
}

/** The request-header CA bundle; StartupErrors name the file (`readWrapper`: see readCaBundle). */
export function readRequestHeaderCa(path: string, readWrapper = ''): Certificate[] {
  return readCaBundle(path, 'request-header client CA file', readWrapper);
}

/** Upstream warns when the standard names are missing: API aggregation relies on them. */
export function warnNonStandardHeaders(names: IdentityHeaders, log: Logger): void {
  const has = (list: readonly string[], standard: string) => list.some((h) => h.toLowerCase() === standard.toLowerCase());
  if (names.username.length > 0 && !has(names.username, 'X-Remote-User')) {
    log.warn('--requestheader-username-headers is set without specifying the standard X-Remote-User header - API aggregation will not work');
  }
  if (names.uid.length > 0 && !has(names.uid, 'X-Remote-Uid')) {
    log.warn('--requestheader-uid-headers is set without specifying the standard X-Remote-Uid header - API aggregation will not work');
  }
  if (names.group.length > 0 && !has(names.group, 'X-Remote-Group')) {
    log.warn('--requestheader-group-headers is set without specifying the standard X-Remote-Group header - API aggregation will not work');
  }
  if (names.extraPrefixes.length > 0 && !has(names.extraPrefixes, 'X-Remote-Extra-')) {
    log.warn('--requestheader-extra-headers-prefix is set without specifying the standard X-Remote-Extra- header prefix - API aggregation will not work');
  }
}
