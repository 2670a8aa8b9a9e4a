// certauthorization.IsAuthorizedForSignerName: may the caller `verb` (approve, sign) the synthetic
// `signers` resource named by the signerName, or failing that `<domain>/*`? Asked of the whole
// authorizer chain as the caller. A deny or an error on the exact name still lets the wildcard
// decide, as upstream; only an explicit allow passes.
import type { AdmissionRequest } from '../../core/admission/request.js';
import type { Logger } from '../../core/log.js';
import { CSR_GROUP } from './csr.js';

async function allowed(req: AdmissionRequest, verb: string, name: string, log: Logger): Promise<boolean> {
  try {
    const decision = await req.authorize({
      verb, isResourceRequest: true, path: '', apiGroup: CSR_GROUP, apiVersion: '*',
      resource: 'signers', subresource: '', namespace: '', name,
    });
    return decision?.decision === 'allow';
  } catch (e) {
    log.v(3).info('cannot authorize signer access', { verb, name, err: e instanceof Error ? e.message : String(e) });
    return false;
  }
}

export async function isAuthorizedForSignerName(req: AdmissionRequest, verb: 'approve' | 'sign', signerName: string, log: Logger): Promise<boolean> {
  if (await allowed(req, verb, signerName, log)) return true;
  const domain = signerName.split('/')[0]!;
  return allowed(req, verb, `${domain}/*`, log);
}
