// spec.request as the API carries it (base64 text), parsed. One create has its request parsed by
// validation (for the proof of possession), by the admission plugins that read its subject, and,
// in `plat all`, by the approving controller a moment later: the parse is a pure function of the
// bytes, so the last few successful ones are kept by their text and shared. A miss only parses again.
import { parseCsr } from './pipeline.js';
import type { ParsedCsr } from './csr.js';

/** Requests in flight at once are a few dozen; a create's readers all come within a few hundred writes. */
const KEPT = 256;
/**
 * The longest text kept. Real requests are a few KiB (an ML-DSA-87 one about 14 KiB), but anyone
 * allowed to create CSRs can send one of megabytes (text after the PEM block is ignored by the
 * parse, and even a request that fails validation is parsed first): kept, 256 of those would hold
 * gigabytes. A longer one is parsed every time, as before there was a memo.
 */
const KEPT_TEXT_CHARS = 32 * 1024;
const parsed = new Map<string, Readonly<ParsedCsr>>();

/**
 * parseCsr of `base64`'s bytes (decoded as Buffer.from(base64, 'base64') does). The result is
 * shared by every caller of the same text: frozen, with its lists, so no reader can change what
 * another sees. Throws CryptoError as parseCsr does (failures are not kept).
 */
export function parseWireCsr(base64: string): Readonly<ParsedCsr> {
  const known = parsed.get(base64);
  if (known !== undefined) return known;
  const csr = parseCsr(Buffer.from(base64, 'base64'));
  for (const list of [csr.subject, ...csr.subject, csr.organizations, csr.dnsNames, csr.ipAddresses, csr.emailAddresses, csr.uris, csr.extensions]) {
    Object.freeze(list);
  }
  Object.freeze(csr);
  if (base64.length > KEPT_TEXT_CHARS) return csr;
  if (parsed.size >= KEPT) parsed.delete(parsed.keys().next().value!);
  parsed.set(base64, csr);
  return csr;
}
