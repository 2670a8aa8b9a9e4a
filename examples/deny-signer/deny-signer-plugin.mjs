// A third-party admission plugin: refuses CertificateSigningRequests for the signer names it is
// given, and (optionally) any request whose PEM is larger than a limit. It only taps a hook.
//
// Options: { signerNames: string[], maxRequestBytes?: number }
const PLUGIN_NAME = 'DenySignerAdmission';

export default function denySigner(options = {}) {
  const denied = new Set(options.signerNames ?? []);
  const maxBytes = options.maxRequestBytes ?? Infinity;
  return {
    name: PLUGIN_NAME,
    apply(host) {
      host.hooks.admitValidate.tapPromise(PLUGIN_NAME, async (req) => {
        if (req.resource !== 'certificatesigningrequests' || req.operation !== 'CREATE') return;
        const spec = req.object?.spec ?? {};
        if (denied.has(spec.signerName)) {
          // A plain Error becomes 403 Forbidden: `... "<name>" is forbidden: <message>`.
          throw new Error(`${PLUGIN_NAME}: signer "${spec.signerName}" is not accepted on this cluster`);
        }
        if (typeof spec.request === 'string' && Buffer.from(spec.request, 'base64').length > maxBytes) {
          throw new Error(`${PLUGIN_NAME}: request is larger than ${maxBytes} bytes`);
        }
      });
    },
  };
}
