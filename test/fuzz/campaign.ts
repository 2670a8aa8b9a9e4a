// One fuzz campaign: `iterations` mutated inputs from the seeds, against both targets. Shared by the
// bounded run in `npm test` and the long run of `npm run fuzz`.
import { mutateDer, mutatePem, pemWrap, prng } from './mutate.js';
import { makeSeeds, type Seeds } from './seeds.js';
import { runTarget, type Finding } from './targets.js';

export interface CampaignFinding extends Finding { iteration: number; input: Uint8Array | string }

let cached: Seeds | undefined;

export function campaign(seed: number, iterations: number, onFinding: (f: CampaignFinding) => void): { runs: number } {
  const seeds = (cached ??= makeSeeds());
  const r = prng(seed);
  let runs = 0;
  for (let i = 0; i < iterations; i++) {
    const csr = r.int(2) === 0;
    const pool = csr ? seeds.csrs : seeds.certificates;
    let der = pool[r.int(pool.length)]!;
    for (let k = 1 + r.int(3); k > 0; k--) der = mutateDer(der, r).bytes;
    const label = csr ? 'CERTIFICATE REQUEST' : 'CERTIFICATE';
    const input: Uint8Array | string = r.int(4) === 0 ? mutatePem(pemWrap(label, der), r) : r.int(3) === 0 ? der : pemWrap(label, der);
    const finding = runTarget(csr ? 'csr' : 'certificate-pem', input);
    runs++;
    if (finding) onFinding({ ...finding, iteration: i, input });
  }
  return { runs };
}
