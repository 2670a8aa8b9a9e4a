// A client presents the same certificate on every request of a connection, and on every
// connection after that; parsing it (our strict DER parse plus OpenSSL's) cost more than anything
// else in a request. A parse is a pure function of the bytes, so the most recently used parses
// are kept, keyed by the DER itself. Failures are not kept: they end the request anyway.
import { parseCertificate, type Certificate } from './certificate.js';

export class CertificateCache {
  readonly #entries = new Map<string, Certificate>();
  constructor(readonly capacity: number) {}

  parse(der: Buffer): Certificate {
    const key = der.toString('latin1');
    const hit = this.#entries.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting makes it the most recently used.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    const cert = parseCertificate(der);
    if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, cert);
    return cert;
  }

  get size(): number { return this.#entries.size; }
}

/** Shared by every authenticator of the process: the same bytes parse the same everywhere. */
export const clientCertificates = new CertificateCache(1024);
