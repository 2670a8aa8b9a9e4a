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
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `tls: failed to verify certificate: x509: ${err.message}`;
  return undefined;
}

/** `err` with Go's text as its message when it is a verification failure (its code kept), else `err`. */
export function withTlsVerifyReason(err: Error): Error {
  const reason = tlsVerifyReason(err as NodeJS.ErrnoException);
  if (reason === undefined) return err;
  return Object.assign(new Error(reason, { cause: err }), { code: (err as NodeJS.ErrnoException).code });
}
