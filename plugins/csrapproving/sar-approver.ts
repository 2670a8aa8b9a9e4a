// The SubjectAccessReview approver (upstream's sarapprove.go, k8s-behaviour §4.2): a node agent's
// client-certificate request is approved when the requester may create the matching
// `certificatesigningrequests/<subresource>`, asked through the API with the CSR's own requester
// (spec.username, uid, groups, extra). Only platform/apiserver-client-nodeagent requests that pass
// the node client rules are recognized; every other signer is left to humans.
import type { ApiObject } from '../../core/api/meta.js';
import { validateNodeClientCsr } from '../../core/certificates/node-csr.js';
import { approvalState, CERTIFICATES_GROUP, CSR_RESOURCE, hasCertificate, SIGNER_NODEAGENT_CLIENT, type Csr } from '../../core/certificates/csr-object.js';
import type { RestClient } from '../../core/client/rest-client.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { IgnorableError } from '../../core/controller/workers.js';
import { parseWireCsr, type ParsedCsr } from '../../core/crypto/index.js';

const SUBJECT_ACCESS_REVIEWS = { group: 'authorization.platform', version: 'v1', plural: 'subjectaccessreviews' };

export interface Recognizer {
  /** `request` is shared (see core/crypto/wire-csr.ts): read it, never change it. */
  recognize(csr: Csr, request: Readonly<ParsedCsr>): boolean;
  /** The subresource of certificatesigningrequests the requester must be allowed to create. */
  readonly subresource: string;
  readonly successMessage: string;
}

const isNodeClientCert = (csr: Csr, request: Readonly<ParsedCsr>): boolean =>
  csr.spec.signerName === SIGNER_NODEAGENT_CLIENT && validateNodeClientCsr(request, csr.spec.usages ?? []) === undefined;

// Order matters: a node renewing its own certificate is asked about selfnodeclient first, then,
// if that is not allowed, about nodeclient like any other requester.
export const RECOGNIZERS: readonly Recognizer[] = [
  {
    recognize: (csr, request) => csr.spec.username === request.commonName && isNodeClientCert(csr, request),
    subresource: 'selfnodeclient',
    successMessage: 'Auto approving self nodeagent client certificate after SubjectAccessReview.',
  },
  {
    recognize: isNodeClientCert,
    subresource: 'nodeclient',
    successMessage: 'Auto approving nodeagent client certificate after SubjectAccessReview.',
  },
];

interface SubjectAccessReview extends ApiObject { status?: { allowed?: boolean } }

async function allowed(client: RestClient, csr: Csr, subresource: string, signal: AbortSignal | undefined): Promise<boolean> {
  const spec = csr.spec;
  const review = await client.create<SubjectAccessReview>(SUBJECT_ACCESS_REVIEWS, {
    apiVersion: 'authorization.platform/v1', kind: 'SubjectAccessReview', metadata: {},
    spec: {
      user: spec.username ?? '', ...(spec.uid ? { uid: spec.uid } : {}), groups: spec.groups ?? [], ...(spec.extra ? { extra: spec.extra } : {}),
      resourceAttributes: { group: CERTIFICATES_GROUP, resource: 'certificatesigningrequests', verb: 'create', subresource, version: '*' },
    },
  }, undefined, undefined, signal ? { signal } : {});
  return review.status?.allowed === true;
}

/**
 * The csrapproving sync handler for one CSR (a private copy: it is modified and sent back). Its
 * requests are abandoned once `signal` aborts (leadership lost, shutdown), as upstream's calls
 * on the leader's context: a process that no longer leads must not approve beside the new leader.
 */
export function sarApprover(client: RestClient, recognizers: readonly Recognizer[] = RECOGNIZERS): (csr: Csr, signal?: AbortSignal) => Promise<void> {
  return async (csr, signal) => {
    if (hasCertificate(csr)) return;
    const { approved, denied } = approvalState(csr);
    if (approved || denied) return;
    let request: Readonly<ParsedCsr>;
    try {
      // Most often the parse the API server's validation of this CSR made (plat all, one process).
      request = parseWireCsr(csr.spec.request ?? '');
    } catch (e) {
      throw new Error(`unable to parse csr "${csr.metadata.name}": ${(e as Error).message}`);
    }
    const tried: string[] = [];
    for (const r of recognizers) {
      if (!r.recognize(csr, request)) continue;
      tried.push(r.subresource);
      if (!(await allowed(client, csr, r.subresource, signal))) continue;
      // lastUpdateTime is left to the server, which stamps new conditions.
      (csr.status ??= {}).conditions = [...(csr.status.conditions ?? []),
        { type: 'Approved', status: 'True', reason: 'AutoApproved', message: r.successMessage }];
      try {
        await client.update(CSR_RESOURCE, csr, 'approval', signal ? { signal } : {});
      } catch (e) {
        throw new Error(`error updating approval for csr: ${goClientErrorText(e)}`);
      }
      return;
    }
    if (tried.length) {
      throw new IgnorableError(`recognized csr "${csr.metadata.name}" as [${tried.join(' ')}] but subject access review was not approved`);
    }
  };
}
