// The JSON schema of CertificateSigningRequest (OpenAPI v3 compatible). It drives ajv decoding,
// unknown-field detection and `kubectl explain`, so the descriptions follow the spec's wording.
import type { JsonSchema } from '../../core/registry/resource.js';
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';

const time = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', nullable: true, description });

export const CSR_DESCRIPTION = 'CertificateSigningRequest objects provide a mechanism to obtain x509 certificates by submitting a certificate signing request, and having it asynchronously approved and issued.\n\n'
  + 'Node agents use this API to obtain:\n 1. client certificates to authenticate to the API server (with the "platform/apiserver-client-nodeagent" signerName).\n'
  + ' 2. serving certificates for TLS endpoints the API server can connect to securely (with the "platform/nodeagent-serving" signerName).\n\n'
  + 'This API can be used to request client certificates to authenticate to the API server (with the "platform/apiserver-client" signerName), or to obtain certificates from custom non-platform signers.';

const conditionSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.CertificateSigningRequestCondition',
  description: 'CertificateSigningRequestCondition describes a condition of a CertificateSigningRequest object',
  required: ['type', 'status'],
  properties: {
    type: {
      type: 'string',
      'x-go-type': 'v1.RequestConditionType',
      description: 'type of the condition. Known conditions are "Approved", "Denied", and "Failed".\n\n'
        + 'An "Approved" condition is added via the /approval subresource, indicating the request was approved and should be issued by the signer.\n\n'
        + 'A "Denied" condition is added via the /approval subresource, indicating the request was denied and should not be issued by the signer.\n\n'
        + 'A "Failed" condition is added via the /status subresource, indicating the signer failed to issue the certificate.\n\n'
        + 'Approved and Denied conditions are mutually exclusive. Approved, Denied, and Failed conditions cannot be removed once added.\n\n'
        + 'Only one condition of a given type is allowed.',
    },
    status: {
      type: 'string',
      'x-go-type': 'v1.ConditionStatus',
      description: 'status of the condition, one of True, False, Unknown. Approved, Denied, and Failed conditions may not be "False" or "Unknown".',
    },
    reason: { type: 'string', description: 'reason indicates a brief reason for the request state' },
    message: { type: 'string', description: 'message contains a human readable message with details about the request state' },
    lastUpdateTime: time('lastUpdateTime is the time of the last update to this condition'),
    lastTransitionTime: time('lastTransitionTime is the time the condition last transitioned from one status to another. If unset, when a new condition type is added or an existing condition\'s status is changed, the server defaults this to the current time.'),
  },
};

const specSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.CertificateSigningRequestSpec',
  description: 'spec contains the certificate request, and is immutable after creation. Only the request, signerName, expirationSeconds, and usages fields can be set on creation. Other fields are derived by the server and cannot be modified by users.',
  required: ['request', 'signerName'],
  properties: {
    request: {
      type: 'string',
      format: 'byte',
      'x-kubernetes-list-type': 'atomic',
      description: 'request contains an x509 certificate signing request encoded in a "CERTIFICATE REQUEST" PEM block. When serialized as JSON or YAML, the data is additionally base64-encoded.',
    },
    signerName: {
      type: 'string',
      description: 'signerName indicates the requested signer, and is a qualified name.\n\n'
        + 'List/watch requests for CertificateSigningRequests can filter on this field using a "spec.signerName=NAME" fieldSelector.\n\n'
        + 'Well-known signers are:\n'
        + ' 1. "platform/apiserver-client": issues client certificates that can be used to authenticate to the API server. Never auto-approved by the controller manager, can be issued by its signing controller.\n'
        + ' 2. "platform/apiserver-client-nodeagent": issues client certificates that node agents use to authenticate to the API server. May be auto-approved by the approving controller, can be issued by the signing controller.\n'
        + ' 3. "platform/nodeagent-serving" issues serving certificates that node agents use to serve TLS endpoints, which the API server can connect to securely. Never auto-approved, can be issued by the signing controller.\n\n'
        + 'Custom signerNames can also be specified. The signer defines how trust is distributed, permitted subjects and extensions, key usages, the lifetime of issued certificates and whether CA certificates may be requested.',
    },
    expirationSeconds: {
      type: 'integer',
      format: 'int32',
      description: 'expirationSeconds is the requested duration of validity of the issued certificate. The certificate signer may issue a certificate with a different validity duration so a client must check the delta between the notBefore and notAfter fields in the issued certificate to determine the actual duration.\n\n'
        + 'The well-known signers honor this field as long as the requested duration is not greater than the maximum duration they will honor per the controller manager\'s signing-duration option. Certificate signers may not honor this field for various reasons: an old signer that is unaware of the field, or a signer whose configured maximum is shorter (or minimum longer) than the requested duration.\n\n'
        + 'The minimum valid value for expirationSeconds is 600, i.e. 10 minutes.',
    },
    usages: {
      type: 'array',
      items: { type: 'string', 'x-go-type': 'v1.KeyUsage' },
      'x-kubernetes-list-type': 'atomic',
      description: 'usages specifies a set of key usages requested in the issued certificate.\n\n'
        + 'Requests for TLS client certificates typically request: "digital signature", "key encipherment", "client auth".\n\n'
        + 'Requests for TLS serving certificates typically request: "key encipherment", "digital signature", "server auth".\n\n'
        + 'Valid values are:\n "signing", "digital signature", "content commitment",\n "key encipherment", "key agreement", "data encipherment",\n "cert sign", "crl sign", "encipher only", "decipher only", "any",\n "server auth", "client auth",\n "code signing", "email protection", "s/mime",\n "ipsec end system", "ipsec tunnel", "ipsec user",\n "timestamping", "ocsp signing", "microsoft sgc", "netscape sgc"',
    },
    username: { type: 'string', description: 'username contains the name of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.' },
    uid: { type: 'string', description: 'uid contains the uid of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.' },
    groups: {
      type: 'array',
      items: { type: 'string' },
      'x-kubernetes-list-type': 'atomic',
      description: 'groups contains group membership of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.',
    },
    extra: {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' }, 'x-go-type': 'v1.ExtraValue' },
      description: 'extra contains extra attributes of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.',
    },
  },
};

const statusSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.CertificateSigningRequestStatus',
  description: 'status contains information about whether the request is approved or denied, and the certificate issued by the signer, or the failure condition indicating signer failure.',
  properties: {
    conditions: {
      type: 'array',
      items: conditionSchema,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
      description: 'conditions applied to the request. Known conditions are "Approved", "Denied", and "Failed".',
    },
    certificate: {
      type: 'string',
      format: 'byte',
      'x-kubernetes-list-type': 'atomic',
      description: 'certificate is populated with an issued certificate by the signer after an Approved condition is present. This field is set via the /status subresource. Once populated, this field is immutable.\n\n'
        + 'If the certificate signing request is denied, a condition of type "Denied" is added and this field remains empty. If the signer cannot issue the certificate, a condition of type "Failed" is added and this field remains empty.\n\n'
        + 'Validation requirements:\n 1. certificate must contain one or more PEM blocks.\n'
        + ' 2. All PEM blocks must have the "CERTIFICATE" label, contain no headers, and the encoded data must be a BER-encoded ASN.1 Certificate structure as described in section 4 of RFC5280.\n'
        + ' 3. Non-PEM content may appear before or after the "CERTIFICATE" PEM blocks and is unvalidated, to allow for explanatory text as described in section 5.2 of RFC7468.\n\n'
        + 'If more than one PEM block is present, and the definition of the requested spec.signerName does not indicate otherwise, the first block is the issued certificate, and subsequent blocks should be treated as intermediate certificates and presented in TLS handshakes.\n\n'
        + 'The certificate is encoded in PEM format.\n\nWhen serialized as JSON or YAML, the data is additionally base64-encoded.',
    },
  },
};

export const csrSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.CertificateSigningRequest',
  description: CSR_DESCRIPTION,
  required: ['spec'],
  properties: {
    ...typeMetaProperties,
    spec: specSchema,
    status: statusSchema,
  },
};
