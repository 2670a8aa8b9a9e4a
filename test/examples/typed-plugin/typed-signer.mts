// A plugin project's TypeScript source, compiled by test/examples/typed-plugin.test.ts against
// plat's published types (`import type ... from 'plat'`), as a plugin author's tsc sees them.
// (.mts so that plat's own build does not compile it.)
import type { AdmissionRequest, Configuration, Host, Plugin, RulesAnswers, RulesQuery, SigningRequest, SigningResult, UserRules } from 'plat';
import { errors, fieldError, issueCertificate, parseCsr, type IssuingCa } from 'plat';

const PLUGIN_NAME = 'TypedSigner';

export interface TypedSignerOptions { readonly signerName: string; readonly ca: IssuingCa }

export default function typedSigner(options: TypedSignerOptions): Plugin<TypedSignerOptions> {
  return {
    name: PLUGIN_NAME,
    apply(host: Host) {
      host.hooks.configure.tap(PLUGIN_NAME, (c: Configuration) => {
        host.logger.child(PLUGIN_NAME).info('configured', { role: c.role, configDir: c.configDir ?? '' });
      });
      host.hooks.admitValidate.tapPromise(PLUGIN_NAME, async (req: AdmissionRequest) => {
        if (req.operation !== 'CREATE' || req.resource !== 'certificatesigningrequests') return;
        if (req.object?.metadata.name?.startsWith('x-')) {
          throw errors.invalid({ group: req.group, kind: req.kind }, req.name, [fieldError.invalid('metadata.name', req.name, 'no x- names')]);
        }
      });
      // The types the README's hook table names for rulesFor.
      host.hooks.rulesFor.tap(PLUGIN_NAME, (_q: RulesQuery, _answers: RulesAnswers): UserRules | undefined => undefined);
      host.hooks.sign.for(options.signerName).tapPromise(PLUGIN_NAME, async (req: SigningRequest): Promise<SigningResult | undefined> => {
        const csr = parseCsr(req.requestPem);
        if (csr.dnsNames.length > 0) return { failed: { reason: 'SignerValidationFailure', message: 'no DNS names' } };
        const notAfter = new Date(req.now.getTime() + 3_600_000);
        return { certificatePem: issueCertificate(req.requestPem, options.ca, { usages: req.usages, notBefore: req.now, notAfter }).certificatePem };
      });
    },
  };
}
