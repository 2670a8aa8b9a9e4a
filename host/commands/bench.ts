// `plat bench crypto`: the crypto core measured side by side with its peers in one run (bench/crypto),
// printed as a table with issue 3's target ratios, and written as JSON and an SVG chart.
import { writeFile } from 'node:fs/promises';
import { renderSvg } from '../../bench/crypto/chart.js';
import { OPS, type Op } from '../../bench/crypto/impl.js';
import { renderFastest, renderHeader, renderRatios, renderTable, targetRatios, toJson } from '../../bench/crypto/report.js';
import { IMPL_NAMES, runCryptoBench } from '../../bench/crypto/suite.js';
import { FlagError, Flags } from '../../core/flags/flag-set.js';

export const BENCH_USAGE = `Usage:
  plat bench crypto [--seconds N] [--workers N] [--ops parse,verify,...] [--impls wasm,native,...] [--json FILE] [--svg FILE]
`;

function cryptoFlags(f: Flags): void {
  const S = 'plat bench crypto';
  f.define({ name: 'seconds', type: 'float', default: 2, section: S, help: 'Timed seconds per row (after a warm-up of a quarter of it, at most 0.5 s); openssl speed uses whole seconds, at least 1.',
    validate: (v) => ((v as number) > 0 && (v as number) <= 600 ? undefined : 'must be more than 0 and at most 600') });
  f.define({ name: 'workers', type: 'int', default: 0, section: S, help: 'Also run issue for wasm, facade and native in this many worker threads and sum their throughput (0: not).',
    validate: (v) => ((v as number) >= 0 && (v as number) <= 256 ? undefined : 'must be between 0 and 256') });
  f.define({ name: 'ops', type: 'strings', default: [...OPS], enum: OPS, section: S, help: 'Operations to measure.' });
  f.define({ name: 'impls', type: 'strings', default: [...IMPL_NAMES], enum: IMPL_NAMES, section: S,
    help: 'Implementations to measure (openssl also gives the openssl-limit issue rows).' });
  f.define({ name: 'json', type: 'string', default: '', section: S, help: 'Write the rows as JSON here.' });
  f.define({ name: 'svg', type: 'string', default: '', section: S, help: 'Write an SVG bar chart here.' });
}

async function benchCrypto(argv: readonly string[]): Promise<string> {
  const f = new Flags();
  cryptoFlags(f);
  const { positional } = f.parse([...argv]);
  if (positional.length) throw new FlagError(`unexpected argument "${positional[0]}"`);
  const seconds = f.get<number>('seconds');
  const workers = f.get<number>('workers');
  const result = await runCryptoBench({ seconds, workers, ops: f.get<Op[]>('ops'), impls: f.get<string[]>('impls') });
  const json = f.get<string>('json');
  const svg = f.get<string>('svg');
  if (json) await writeFile(json, toJson(result.rows));
  if (svg) await writeFile(svg, renderSvg(result));
  return [
    renderHeader(result, seconds),
    renderTable(result.rows),
    'Fastest in-process implementation per operation (one thread):\n' + renderFastest(result.rows),
    'Targets of issue 3, from this run:\n' + renderRatios(targetRatios(result.rows, workers)),
    ...(json || svg ? [[json && `JSON written to ${json}\n`, svg && `SVG written to ${svg}\n`].join('')] : []),
  ].join('\n');
}

/** `plat bench <what> [flags]`; returns the exit code. */
export async function runBench(argv: readonly string[]): Promise<number> {
  const [what, ...rest] = argv;
  if (what === 'crypto' && (rest.includes('--help') || rest.includes('-h'))) {
    const f = new Flags();
    cryptoFlags(f);
    process.stdout.write(f.help('plat bench crypto [flags]', 'Measures CSR parse, CSR verify, PEM validation, sign and issue-one-cert for each implementation side by side.'));
    return 0;
  }
  if (what !== 'crypto') {
    if (what && what !== '--help' && what !== '-h') process.stderr.write(`plat bench: unknown benchmark "${what}"\n`);
    process.stdout.write(BENCH_USAGE);
    return what === '--help' || what === '-h' ? 0 : 2;
  }
  try {
    process.stdout.write(await benchCrypto(rest));
    return 0;
  } catch (e) {
    if (e instanceof FlagError) {
      process.stderr.write(`plat bench crypto: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  }
}
