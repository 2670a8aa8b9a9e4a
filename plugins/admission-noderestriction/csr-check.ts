// NodeRestriction's CSR rule (admitCSR upstream): a node creating a CSR for the node-agent client
// or serving signer may only ask for its own identity, CN=system:node:<its name>; otherwise a node
// holding any node credential could obtain certificates for every other node. Other signers are
// left to the signer's own policy.
import type { AdmissionRequest } from '../../core/admission/request.js';
import { CryptoError, parseWireCsr } from '../../core/crypto/index.js';
import { NODE_USER_PREFIX } from './node-identity.js';

export const CSR_GROUP = 'certificates.platform';
export const CSR_RESOURCE = 'certificatesigningrequests';
const NODE_SIGNERS = new Set(['platform/nodeagent-serving', 'platform/apiserver-client-nodeagent']);

function specOf(req: AdmissionRequest): Record<string, unknown> {
  const spec = (req.object as Record<string, unknown> | undefined)?.['spec'];
  return spec !== null && typeof spec === 'object' ? spec as Record<string, unknown> : {};
}

export function admitNodeCsr(req: AdmissionRequest, nodeName: string): void {
  if (req.operation !== 'CREATE') return;
  const spec = specOf(req);
  if (typeof spec['signerName'] !== 'string' || !NODE_SIGNERS.has(spec['signerName'])) return;
  let commonName: string;
  try {
    // The parse validation made of the same text (shared, see core/crypto/wire-csr.ts).
    commonName = parseWireCsr(typeof spec['request'] === 'string' ? spec['request'] : '').commonName;
  } catch (e) {
    if (!(e instanceof CryptoError)) throw e;
    throw new Error(`unable to parse csr: ${e.message}`);
  }
  const want = `${NODE_USER_PREFIX}${nodeName}`;
  if (commonName !== want) throw new Error(`can only create a node CSR with CN=${want}`);
}
