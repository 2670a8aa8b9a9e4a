// What "issued" means for both targets, checked with node:crypto (not plat's own parser): exactly
// one certificate, signed by the run's CA, carrying the key of the CSR it answers, with a serial
// no other certificate of the run has.
import { X509Certificate, type KeyObject } from 'node:crypto';
import type { BenchCsr } from './inputs.js';

export interface CheckSummary {
  /** Certificates that passed every check. */
  readonly verified: number;
  /** The first few problems, as `<csr name>: <problem>`. */
  readonly problems: readonly string[];
  readonly problemCount: number;
}

export class CertificateChecker {
  readonly #caKey: KeyObject;
  readonly #serials = new Map<string, string>();
  readonly #problems: string[] = [];
  #problemCount = 0;
  #verified = 0;

  constructor(caCertificatePem: string) {
    this.#caKey = new X509Certificate(caCertificatePem).publicKey;
  }

  /** Checks the certificate issued for `csr`; false (and a problem noted) when it is not right. */
  check(csr: BenchCsr, certificatePem: string | undefined): boolean {
    const problem = this.#problem(csr, certificatePem);
    if (problem === undefined) {
      this.#verified++;
      return true;
    }
    this.#problemCount++;
    if (this.#problems.length < 10) this.#problems.push(`${csr.name}: ${problem}`);
    return false;
  }

  summary(): CheckSummary {
    return { verified: this.#verified, problems: [...this.#problems], problemCount: this.#problemCount };
  }

  #problem(csr: BenchCsr, pem: string | undefined): string | undefined {
    if (!pem) return 'no certificate';
    const blocks = pem.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0;
    if (blocks !== 1) return `${blocks} certificates where one was expected`;
    let x: X509Certificate;
    try {
      x = new X509Certificate(pem);
    } catch (e) {
      return `not a certificate: ${(e as Error).message}`;
    }
    if (!x.verify(this.#caKey)) return 'not signed by the run\'s CA';
    if (!x.publicKey.export({ type: 'spki', format: 'der' }).equals(csr.spki)) return 'the certificate\'s public key is not the CSR\'s';
    const other = this.#serials.get(x.serialNumber);
    if (other !== undefined) return `serial ${x.serialNumber} also issued to ${other}`;
    this.#serials.set(x.serialNumber, csr.name);
    return undefined;
  }
}
