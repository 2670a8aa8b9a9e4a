// Counts `plat csr`'s GETs of the CSR collection (its lists and watches; `get NAME` reads NAME's
// path), so that a test changes something only once the command watches. Taps ahead of every
// authenticator and answers nothing. The command's agent is client-go's default for a binary
// named plat (`plat/<gitVersion> (<os>/<arch>) platform/<commit>`); the test's own requests send none.
import type { Plugin } from '../../core/plugin.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

export function cliCollectionGets(): { plugin: Plugin; count(): number } {
  let n = 0;
  return {
    count: () => n,
    plugin: {
      name: 'CliCollectionGetsForTests',
      apply(host) {
        host.hooks.authenticate.tap({ name: 'CliCollectionGetsForTests', stage: Number.MIN_SAFE_INTEGER }, (req) => {
          if (req.method === 'GET' && req.path === CSRS && String(req.headers['user-agent']).startsWith('plat/')) n++;
          return undefined;
        });
      },
    },
  };
}
