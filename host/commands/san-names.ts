// Which --dns and --ip values `plat csr create` puts into a request's subjectAltName. Both flags
// are kubectl-style string slices (repeatable and comma-separated, `--dns a.example,b.example`);
// a value that is not a name a TLS client could match is a command-line mistake (exit 2), said
// before a key is made or a request sent.
//
// The DNS rule is RFC 1123 host name syntax (upstream's IsDNS1123Subdomain, with a length limit
// per label): dot-separated labels of 1 to 63 letters, digits and '-', not starting or ending with
// '-', 253 characters in all, no trailing dot. Upper case is accepted and kept: Go's and OpenSSL's
// verifiers compare names without regard to case. The leftmost label may be the wildcard `*` alone
// (`*.example.com`), the only wildcard Go's and OpenSSL's verifiers match. Anything else a
// certificate may carry but no verifier would match (spaces, commas inside a name, `_`,
// `f*.example`) or cannot encode (non-ASCII: a SAN is an IA5String, Go refuses to marshal it) is
// refused: an internationalized name goes in its A-label form (`xn--...`).
import { isIP } from 'node:net';

const LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const MAX_NAME = 253;

/** Why `name` cannot be a DNS subjectAltName, or undefined when it can. */
export function dnsSanError(name: string): string | undefined {
  const what = `${JSON.stringify(name)} is not a DNS name`;
  if (name === '') return `${what} (empty)`;
  if (/[^\x00-\x7f]/.test(name)) return `${what} (only ASCII: give an internationalized name in its xn-- form)`;
  if (name.length > MAX_NAME) return `${what} (longer than ${MAX_NAME} characters)`;
  const labels = name.split('.');
  const rest = labels[0] === '*' && labels.length > 1 ? labels.slice(1) : labels;
  if (rest.every((l) => LABEL.test(l))) return undefined;
  return `${what} (labels of letters, digits and '-' between dots, at most 63 characters, not starting or ending with '-'; only a whole leftmost "*" label as a wildcard)`;
}

export function ipSanError(ip: string): string | undefined {
  // Node takes an IPv6 zone (`fe80::1%eth0`); Go's net.ParseIP does not, and a certificate has none.
  return isIP(ip) === 0 || ip.includes('%') ? `${JSON.stringify(ip)} is not an IP address` : undefined;
}

/** A string-slice flag's validate: the first bad element's message. */
export const firstError = (check: (v: string) => string | undefined) => (v: unknown): string | undefined =>
  (v as string[]).map(check).find((m) => m !== undefined);
