// A server certificate that does not verify, said as Go's clients say it (kubectl, client-go):
// Node's OpenSSL texts ("unable to verify the first certificate") do not say that it is the
// server's certificate that failed, nor why in the words an operator will search for.
const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT',
]);

/** Go's text for a server-certificate verification failure, or undefined for any other error. */
export function tlsVerifyReason(err: NodeJS.ErrnoException): string | undefined {
  const code = err.code ?? '';
  if (UNKNOWN_AUTHORITY.has(code)) return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `tls: failed to verify certificate: ${hostnameError(err as AltnameError)}`;
  return undefined;
}

/** What Node's checkServerIdentity attaches to its error. */
type AltnameError = NodeJS.ErrnoException & { host?: string; cert?: { subjectaltname?: string; subject?: { CN?: string | string[] } } };

/** Node's `subjectaltname` ("DNS:a, IP Address:127.0.0.1", values with odd characters JSON-quoted) by kind. */
function subjectAltNames(text: string | undefined): { dns: string[]; ips: string[] } | undefined {
  if (text === undefined) return undefined;
  const out = { dns: [] as string[], ips: [] as string[] };
  for (const m of text.matchAll(/([A-Za-z ]+):("(?:[^"\\]|\\.)*"|[^,]*)(?:, |$)/g)) {
    const value = m[2]!.startsWith('"') ? JSON.parse(m[2]!) as string : m[2]!;
    if (m[1] === 'DNS') out.dns.push(value);
    else if (m[1] === 'IP Address') out.ips.push(goIp(value));
  }
  return out;
}

/** net.IP's String(): IPv6 compressed and lower case (RFC 5952), as a URL host writes it. */
function goIp(ip: string): string {
  return ip.includes(':') ? new URL(`http://[${ip}]/`).hostname.slice(1, -1) : ip;
}

const isIp = (host: string): boolean => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':');

/** Go's matchHostnames, for the legacy Common Name check: exact, or a `*.` label for the first. */
function matchesName(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase().replace(/\.$/, '').split('.');
  const h = host.toLowerCase().replace(/\.$/, '').split('.');
  return p.length === h.length && p.every((label, i) => label === h[i] || (i === 0 && label === '*' && h[i] !== ''));
}

/** crypto/x509's HostnameError.Error() for the certificate Node refused for `host`. */
function hostnameError(err: AltnameError): string {
  const host = err.host ?? '';
  const sans = subjectAltNames(err.cert?.subjectaltname);
  const cn = err.cert?.subject?.CN;
  const commonName = Array.isArray(cn) ? cn.at(-1) : cn;
  if (!sans && commonName !== undefined && matchesName(commonName, host)) {
    return 'x509: certificate relies on legacy Common Name field, use SANs instead';
  }
  let valid: string;
  if (isIp(host)) {
    if (!sans?.ips.length) return `x509: cannot validate certificate for ${host} because it doesn't contain any IP SANs`;
    valid = sans.ips.join(', ');
  } else {
    valid = (sans?.dns ?? []).join(', ');
  }
  if (!valid) return `x509: certificate is not valid for any names, but wanted to match ${host}`;
  return `x509: certificate is valid for ${valid}, not ${host}`;
}

/** `err` with Go's text as its message when it is a verification failure (its code kept), else `err`. */
export function withTlsVerifyReason(err: Error): Error {
  const reason = tlsVerifyReason(err as NodeJS.ErrnoException);
  if (reason === undefined) return err;
  return Object.assign(new Error(reason, { cause: err }), { code: (err as NodeJS.ErrnoException).code });
}
