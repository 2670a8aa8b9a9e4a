// `plat bench crypto`: the crypto core measured side by side with its peers in one run (bench/crypto),
// printed as a table with issue 3's target ratios, and written as JSON and an SVG chart.
// `plat bench issue`: CSR to certificate through plat all's HTTP API, side by side with cfssl serve
// (bench/issue), printed as a table with issue 6's target ratio, and written as JSON and an SVG chart.
import { writeFile } from 'node:fs/promises';
import { renderSvg } from '../../bench/crypto/chart.js';
import { renderSvg as renderIssueSvg } from '../../bench/issue/chart.js';
import { issueFlags } from '../../bench/issue/flags.js';
import type { BenchKeyType, ControllerMode } from '../../bench/issue/options.js';
import { renderReport, toJson as issueToJson } from '../../bench/issue/report.js';
import { renderNodeAgentsReport, toJson as nodeAgentsJson } from '../../bench/nodeagents/report.js';
import { runNodeAgentsBench } from '../../bench/nodeagents/run.js';
import { runIssueBench } from '../../bench/issue/run.js';
import { OPS, type Op } from '../../bench/crypto/impl.js';
import { renderFastest, renderHeader, renderRatios, renderTable, targetRatios, toJson } from '../../bench/crypto/report.js';
import { IMPL_NAMES, runCryptoBench } from '../../bench/crypto/suite.js';
import { FlagError, Flags } from '../../core/flags/flag-set.js';

export const BENCH_USAGE = `Usage:
  plat bench crypto [--seconds N] [--workers N] [--ops parse,verify,...] [--impls wasm,native,...] [--json FILE] [--svg FILE]
  plat bench issue [--csrs N] [--concurrency C] [--key-type p256|ed25519|rsa2048[,...]] [--warmup N] [--controller embedded|separate]
                   [--plat-api-qps Q] [--plat-api-burst B] [--stages] [--cfssl BIN] [--cfssl-stored=false] [--cpu-prof DIR]
                   [--json FILE] [--svg FILE]
  plat bench nodeagents [--agents 200] [--seconds 60] [--stagger 10ms] [--json FILE]
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

async function benchIssue(argv: readonly string[]): Promise<string | { output: string; exitCode: number }> {
  const f = new Flags();
  issueFlags(f);
  const { positional } = f.parse([...argv]);
  if (positional.length) throw new FlagError(`unexpected argument "${positional[0]}"`);
  const keyTypes = [...new Set(f.get<BenchKeyType[]>('key-type'))];
  if (keyTypes.length === 0) throw new FlagError('--key-type: name at least one key type');
  const result = await runIssueBench({
    csrs: f.get<number>('csrs'), concurrency: f.get<number>('concurrency'), keyTypes, warmup: f.get<number>('warmup'),
    controller: f.get<ControllerMode>('controller'), apiQps: f.get<number>('plat-api-qps'), apiBurst: f.get<number>('plat-api-burst'),
    stages: f.get<boolean>('stages'), cfssl: f.get<string>('cfssl'), cfsslStored: f.get<boolean>('cfssl-stored'), cpuProfDir: f.get<string>('cpu-prof'), log: (line) => process.stderr.write(`plat bench issue: ${line}\n`),
  });
  const json = f.get<string>('json');
  const svg = f.get<string>('svg');
  if (json) await writeFile(json, issueToJson(result));
  if (svg) await writeFile(svg, renderIssueSvg(result));
  const output = renderReport(result) + [json && `JSON written to ${json}\n`, svg && `SVG written to ${svg}\n`].join('');
  // A certificate missing, wrong or issued twice makes the figures meaningless: the run fails.
  const failed = result.runs.flatMap((r) => [r.plat, r.cfssl]).some((t) => t.verification && !t.verification.issuedOnce);
  return failed ? { output: `${output}FAILED: not every certificate was issued exactly once and verified (see the problems above)\n`, exitCode: 1 } : output;
}

function nodeAgentsFlags(f: Flags): void {
  const S = 'plat bench nodeagents';
  f.define({ name: 'agents', type: 'int', default: 200, section: S, help: 'Node agents started in this process.', validate: (v) => ((v as number) >= 1 && (v as number) <= 5000 ? undefined : 'must be between 1 and 5000') });
  f.define({ name: 'seconds', type: 'int', default: 60, section: S, help: 'How long the agents hold their Leases after all have bootstrapped.', validate: (v) => ((v as number) >= 1 && (v as number) <= 3600 ? undefined : 'must be between 1 and 3600') });
  f.define({ name: 'stagger', type: 'duration', default: 10, section: S, help: 'Pause between starting two agents.' });
  f.define({ name: 'json', type: 'string', default: '', section: S, help: 'Write the results as JSON here.' });
}

async function benchNodeAgents(argv: readonly string[]): Promise<{ output: string; exitCode: number }> {
  const f = new Flags();
  nodeAgentsFlags(f);
  const { positional } = f.parse([...argv]);
  if (positional.length) throw new FlagError(`unexpected argument "${positional[0]}"`);
  const result = await runNodeAgentsBench({
    agents: f.get<number>('agents'), seconds: f.get<number>('seconds'), staggerMs: f.get<number>('stagger'),
    log: (line) => process.stderr.write(`plat bench nodeagents: ${line}\n`),
  });
  const json = f.get<string>('json');
  if (json) await writeFile(json, nodeAgentsJson(result));
  return { output: renderNodeAgentsReport(result) + (json ? `JSON written to ${json}\n` : ''), exitCode: result.checks.problems.length ? 1 : 0 };
}

const BENCHMARKS: Record<string, { flags: (f: Flags) => void; about: string; run: (argv: readonly string[]) => Promise<string | { output: string; exitCode: number }> }> = {
  crypto: { flags: cryptoFlags, run: benchCrypto, about: 'Measures CSR parse, CSR verify, PEM validation, sign and issue-one-cert for each implementation side by side.' },
  nodeagents: { flags: nodeAgentsFlags, run: benchNodeAgents, about: 'Runs many node agents in one process against one plat all: bootstrap, registration, Leases held; the API server\'s CPU and memory.' },
  issue: { flags: issueFlags, run: benchIssue, about: 'Measures CSR-to-certificate throughput and latency through plat all\'s HTTP API (create, approve, watch) side by side with cfssl serve.' },
};

/** `plat bench <what> [flags]`; returns the exit code. */
export async function runBench(argv: readonly string[]): Promise<number> {
  const [what, ...rest] = argv;
  const bench = what !== undefined && Object.hasOwn(BENCHMARKS, what) ? BENCHMARKS[what] : undefined;
  if (bench && (rest.includes('--help') || rest.includes('-h'))) {
    const f = new Flags();
    bench.flags(f);
    process.stdout.write(f.help(`plat bench ${what} [flags]`, bench.about));
    return 0;
  }
  if (!bench) {
    if (what && what !== '--help' && what !== '-h') process.stderr.write(`plat bench: unknown benchmark "${what}"\n`);
    process.stdout.write(BENCH_USAGE);
    return what === '--help' || what === '-h' ? 0 : 2;
  }
  try {
    const out = await bench.run(rest);
    if (typeof out === 'string') {
      process.stdout.write(out);
      return 0;
    }
    process.stdout.write(out.output);
    return out.exitCode;
  } catch (e) {
    if (e instanceof FlagError) {
      process.stderr.write(`plat bench ${what}: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  }
}
