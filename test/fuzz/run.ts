// `npm run fuzz [-- --iterations N --seed S]`: a longer campaign than the one in `npm test`. Every
// finding is written to test/fuzz/corpus/ as a regression case, and the run exits 1.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { campaign } from './campaign.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const iterations = arg('iterations', 200_000);
const seed = arg('seed', Date.now() & 0x7fffffff);
const corpus = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fuzz/corpus');
let found = 0;
const t0 = Date.now();
const { runs } = campaign(seed, iterations, (f) => {
  found++;
  const file = path.join(corpus, `${f.target === 'csr' ? 'csr' : 'certificate-pem'}-found-${seed}-${f.iteration}.bin`);
  writeFileSync(file, f.input);
  process.stderr.write(`finding #${found} at iteration ${f.iteration} (${f.target}): ${String(f.error)}\n  saved as ${file}\n`);
});
process.stdout.write(`fuzz: ${runs} inputs, seed ${seed}, ${found} findings, ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
process.exit(found ? 1 : 0);
