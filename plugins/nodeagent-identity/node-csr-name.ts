// The legacy bootstrap's CSR name (upstream's digestedName, k8s-behaviour §5.4 item 5): the same
// key, subject and usages always give the same name, so an agent restarted while its CSR waits
// finds that CSR instead of sending another. Each part is base64url-encoded (no padding) and ended
// by `|`, which that alphabet lacks: `CN:foo,O:bar` and `CN:foob,O:ar` cannot hash alike.
import { createHash } from 'node:crypto';

export interface NodeCsrNameParts {
  /** The PKIX (SubjectPublicKeyInfo) DER of the request's public key. */
  readonly publicKeyDer: Uint8Array;
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly usages: readonly string[];
}

export function nodeCsrName(p: NodeCsrNameParts): string {
  const hash = createHash('sha512-256');
  const write = (data: Uint8Array | string) => hash.update(Buffer.from(data).toString('base64url')).update('|');
  write(p.publicKeyDer);
  write(p.commonName);
  for (const o of p.organizations) write(o);
  for (const u of p.usages) write(u);
  return `node-csr-${hash.digest('base64url')}`;
}
