export { CsrSigningController, CONTROLLER_NAME } from './controller-plugin.js';
export { ClusterSigner } from './cluster-signer.js';
export { SigningController, CSR_RESOURCE, WORKERS_PER_SIGNER, SIGN_TIMEOUT_MS, type SigningControllerOptions } from './signing-controller.js';
export { APISERVER_CLIENT_SIGNER, NODEAGENT_CLIENT_SIGNER, NODEAGENT_SERVING_SIGNER, LEGACY_UNKNOWN_SIGNER, validApiServerClientUsages } from './signers.js';
export { certificateTtl, validityWindow } from './lifetime.js';
export { goTime } from '../../core/go-time-text.js';
export { parseSigningCa, loadSigningCa } from './ca-pair.js';
export { CaProvider } from './ca-provider.js';
