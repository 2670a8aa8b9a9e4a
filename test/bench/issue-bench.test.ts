// `plat bench issue` as a user runs it, with a handful of CSRs: it exits 0, prints the table, and
// writes JSON of the documented shape (every CSR issued once and verified, positive rates) and an
// SVG with a bar per measured target. With cfssl installed it is measured too; a cfssl that is
// not there is reported with the way to install it. Flag mistakes exit 2. No timing assertions.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { spawnSync as run } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { probeCfssl } from '../../bench/issue/cfssl-target.js';
import { platBin, repoRoot, tempDir } from '../helpers/plat.js';

const CSRS = 6;

const hasSqlite3 = !run('sqlite3', ['-version']).error;

function bench(args: string[], env?: NodeJS.ProcessEnv): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [platBin, 'bench', 'issue', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 240_000, ...(env ? { env } : {}) });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function assertMeasured(t: any, what: string): void {
  assert.equal(t.available, true, `${what}: ${t.reason}`);
  for (const k of ['certs', 'seconds', 'certsPerSec', 'p50Ms', 'p99Ms', 'maxMs', 'harnessCpuMsPerCert']) {
    assert.equal(typeof t.numbers[k], 'number', `${what}.numbers.${k}`);
  }
  assert.equal(t.numbers.certs, CSRS, what);
  assert.ok(t.numbers.certsPerSec > 0, what);
  assert.ok(t.numbers.p50Ms <= t.numbers.p99Ms && t.numbers.p99Ms <= t.numbers.maxMs, what);
  assert.ok(t.numbers.serverCpuMsPerCert === null || t.numbers.serverCpuMsPerCert >= 0, what);
  // The event loop is one thread of the servers: never more than all of them.
  if (t.numbers.eventLoopCpuMsPerCert !== null && t.numbers.serverCpuMsPerCert !== null) {
    assert.ok(t.numbers.eventLoopCpuMsPerCert >= 0 && t.numbers.eventLoopCpuMsPerCert <= t.numbers.serverCpuMsPerCert, what);
  }
  assert.deepEqual(t.verification, { verified: CSRS, issuedOnce: true, problems: [] }, what);
}

describe('plat bench issue', () => {
  it('measures plat all (and cfssl when installed) end to end and writes JSON and SVG', () => {
    const dir = tempDir();
    const json = path.join(dir, 'issue.json');
    const svg = path.join(dir, 'issue.svg');
    const r = bench(['--csrs', String(CSRS), '--warmup', '2', '--concurrency', '3', '--stages', '--json', json, '--svg', svg]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^plat bench issue: 6 CSRs per target \(after 2 warm-up\), concurrency 3/);
    assert.match(r.stdout, /--plat-api-qps 5000 --plat-api-burst 10000/);
    assert.match(r.stdout, /\| plat \| [\d,]+ \|/);

    const result = JSON.parse(readFileSync(json, 'utf8'));
    assert.deepEqual(Object.keys(result).sort(), ['cfssl', 'config', 'environment', 'plat', 'runs']);
    assert.deepEqual(result.config, {
      csrs: CSRS, concurrency: 3, warmup: 2, signer: 'platform/apiserver-client', usages: ['digital signature', 'client auth'], lifetimeHours: 8760,
    });
    assert.equal(result.plat.controller, 'embedded');
    assert.equal(result.plat.stages, true);
    assert.equal(result.runs.length, 1);
    const run = result.runs[0];
    assert.equal(run.keyType, 'p256');
    assertMeasured(run.plat, 'plat');
    // plat all is a node process: its event loop is measured (on Linux, where /proc is), cfssl's is not.
    if (process.platform === 'linux') {
      assert.equal(typeof run.plat.numbers.eventLoopCpuMsPerCert, 'number');
      assert.match(r.stdout, /plat's event loop: [\d.]+ ms of CPU per certificate, a bound of [\d,]+ certificates\/s/);
      // The CPU bounds follow from the JSON's own numbers: cores x 1000 / CPU ms per certificate.
      const cpus = result.environment.cpus;
      const n = run.plat.numbers;
      const num = (m: RegExpMatchArray | null, what: string) => { assert.ok(m, `${what} in:\n${r.stdout}`); return Number(m[1]!.replace(/,/g, '')); };
      const near = (shown: number, want: number, what: string) => assert.ok(Math.abs(shown - want) <= Math.max(1, want * 0.01), `${what}: ${shown} vs ${want}`);
      near(num(r.stdout.match(new RegExp(`CPU bound on ${cpus} cores \\(server and load generator CPU per certificate\\): plat ([\\d,]+)/s`)), 'plat bound'),
        cpus * 1000 / (n.serverCpuMsPerCert + n.harnessCpuMsPerCert), 'plat bound');
      near(num(r.stdout.match(/a server using no CPU at all could show at most ([\d,]+) certificates\/s/), 'load-generator bound'),
        cpus * 1000 / n.harnessCpuMsPerCert, 'load-generator bound');
    }

    // --stages: each of the three writes timed on its own, every request answered (the driver
    // throws on any other status), and the remainder row is the full run minus the three.
    const stages = run.plat.stageCpu;
    assert.deepEqual(Object.keys(stages).sort(), ['approve', 'create', 'status']);
    for (const [name, x] of Object.entries<any>(stages)) {
      assert.equal(x.certs, CSRS, name);
      assert.ok(x.certsPerSec > 0 && x.harnessCpuMsPerCert >= 0, name);
    }
    assert.match(r.stdout, /\| create: POST the CSR \| [\d,]+ \|/);
    assert.match(r.stdout, /\| approve: PUT \/approval \| [\d,]+ \|/);
    assert.match(r.stdout, /\| issue: PUT \/status with the certificate \(sent by the benchmark\) \| [\d,]+ \|/);
    if (process.platform === 'linux') {
      const rest = r.stdout.match(/\| the rest of a certificate in the full run [^|]* \| \| (-?[\d.,]+) \| (-?[\d.,]+) \| \|/);
      assert.ok(rest, r.stdout);
      const n = run.plat.numbers;
      const sum = (k: string) => stages.create[k] + stages.approve[k] + stages.status[k];
      assert.ok(Math.abs(Number(rest[1]!.replace(/,/g, '')) - (n.eventLoopCpuMsPerCert - sum('eventLoopCpuMsPerCert'))) <= 0.011, rest[0]);
      assert.ok(Math.abs(Number(rest[2]!.replace(/,/g, '')) - (n.serverCpuMsPerCert - sum('serverCpuMsPerCert'))) <= 0.011, rest[0]);
    }

    const cfssl = probeCfssl('cfssl');
    if (cfssl.found) {
      assertMeasured(run.cfssl, 'cfssl');
      assert.equal(run.cfssl.numbers.eventLoopCpuMsPerCert, null);
      assert.equal(result.cfssl.version, cfssl.version);
      assert.ok(run.ratio > 0);
      assert.match(r.stdout, /plat \/ cfssl: \d+\.\d\dx/);
      if (hasSqlite3) {
        // HTTPS, a client certificate, every certificate in its database (checked by the run).
        assertMeasured(run.cfsslStored, 'cfssl stored');
        assert.ok(run.storedRatio > 0);
        assert.match(r.stdout, /^cfssl stored: cfssl serve as above, with HTTPS .*-mutual-tls-ca.*-db-config/m);
        assert.match(r.stdout, /plat \/ cfssl stored \(HTTPS, client certificates, its certificate database\): \d+\.\d\dx/);
      }
    } else {
      assert.equal(run.cfssl.available, false);
      assert.equal(run.ratio, null);
      assert.equal(run.cfsslStored.available, false);
      assert.equal(run.storedRatio, null);
      assert.match(r.stdout, /apt-get install -y golang-cfssl/);
    }

    const chart = readFileSync(svg, 'utf8');
    assert.match(chart, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg /);
    assert.match(chart, /<\/svg>\n$/);
    assert.equal(chart.match(/<rect x="\d+" y="[\d.]+" width="[\d.]+" height="\d+" fill="#[0-9a-f]{6}"><title>/g)?.length, cfssl.found ? (hasSqlite3 ? 3 : 2) : 1);
  });

  it('runs the signing controller in a plat controller-manager of its own, and says how to get a missing cfssl', () => {
    const r = bench(['--csrs', String(CSRS), '--warmup', '1', '--concurrency', '2', '--controller', 'separate', '--cfssl', path.join(tempDir(), 'no-cfssl'), '--cfssl-stored=false']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /signing controller in a plat controller-manager process of its own/);
    assert.match(r.stdout, /cfssl: not measured \(install: apt-get update && apt-get install -y golang-cfssl\)/);
    assert.match(r.stdout, /\| cfssl \| not measured: .*no-cfssl not found; install it with: apt-get update && apt-get install -y golang-cfssl/);
    assert.match(r.stdout, new RegExp(`\\| plat \\| [\\d,]+ \\| .* \\| ${CSRS}/${CSRS}, each once \\|`));
    assert.match(r.stdout, /\| cfssl stored \| not measured: skipped \(--cfssl-stored=false\)/);
    assert.doesNotMatch(r.stdout, /plat \/ cfssl/);
    assert.doesNotMatch(r.stdout, /plat by stage/);
  });

  it('says how to get sqlite3 when the stored cfssl cannot make its database', { skip: !probeCfssl('cfssl').found && 'cfssl is not installed' }, () => {
    // A PATH with cfssl and nothing else: plain cfssl is measured, the stored setup says what is missing.
    const bin = path.join(tempDir(), 'bin');
    mkdirSync(bin);
    const cfssl = run('sh', ['-c', 'command -v cfssl'], { encoding: 'utf8' }).stdout.trim();
    symlinkSync(cfssl, path.join(bin, 'cfssl'));
    const r = bench(['--csrs', '2', '--warmup', '0', '--concurrency', '1'], { ...process.env, PATH: bin });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\| cfssl \| [\d,]+ \| .* \| 2\/2, each once \|/);
    assert.match(r.stdout, /\| cfssl stored \| not measured: sqlite3 \(to create its certificate database\) not found; install it with: apt-get update && apt-get install -y sqlite3 \|/);
    assert.doesNotMatch(r.stdout, /plat \/ cfssl stored/);
  });

  for (const [args, message] of [
    [['--concurrency', '0'], /--concurrency.*must be between 1 and 4096/],
    [['--key-type', 'p384'], /--key-type/],
    [['--controller', 'harness'], /--controller/],
    [['--plat-api-qps', '0'], /--plat-api-qps.*must be more than 0/],
    [['extra'], /unexpected argument "extra"/],
  ] as const) {
    it(`exits 2 for ${args.join(' ')}`, () => {
      const r = bench([...args]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, message);
    });
  }

  it('lists its flags with --help', () => {
    const r = bench(['--help']);
    assert.equal(r.code, 0);
    for (const flag of ['--csrs', '--concurrency', '--key-type', '--warmup', '--controller', '--plat-api-qps', '--plat-api-burst', '--stages', '--cfssl', '--cfssl-stored', '--cpu-prof', '--json', '--svg']) {
      assert.match(r.stdout, new RegExp(`${flag}\\b`));
    }
  });
});
