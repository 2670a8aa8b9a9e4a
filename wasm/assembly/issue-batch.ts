// Batch issuing: many PEM CSRs in, many signed certificates out, in one call from JS. Each CSR
// goes through the same steps as the single-certificate pipeline (core/crypto/pipeline.ts), with
// the same internals: parseCsrPem (csr.ts, every check), proof of possession (p256Verify /
// ed25519Verify), x509BuildTbs (x509.ts, the SPKI copied from the CSR, the subject re-marshalled as
// Go does, go-subject.ts, the SAN rebuilt from the CSR's DNS, email, IP and URI names only,
// san-entries.ts; URIs re-serialised as Go does, go-url.ts), the CA signature
// (P-256: p256SignBatch, which shares the two modular inversions per signature across the batch;
// Ed25519: ed25519Sign with the cached expanded key), x509AssembleCertificate. What saves time is
// one JS/WASM crossing per batch instead of ~6 per certificate, no JS-side CSR decoding, and the
// shared inversions.
//
// Parameter block (little-endian; every (off, len) pair is relative to the block start and must
// lie inside it). core/crypto/wasm/issue-batch.ts writes it; keep the two in step.
//    0 u32 signature algorithm: 1 ecdsa-with-SHA256 (P-256 CA key) or 4 Ed25519 (x509.ts SIG_*)
//    4 u32 count N (at most 65536)
//    8 f64 notBefore, Unix seconds (whole)        16 f64 notAfter
//   24 u32 keyUsage mask   28 u32 extKeyUsage mask (as x509.ts)
//   32 u32 flags: 1 cA (which also brings a subjectKeyIdentifier: Go writes one for CAs only)
//   36 CA private key: P-256 scalar or Ed25519 seed, 32 bytes (off u32, len u32)
//   44 issuer Name DER     52 issuer subjectKeyIdentifier (the leaves' authorityKeyIdentifier;
//                             length 0: the CA has none, and the leaves get no AKI, as in Go)
//   60 serials: N * 16 bytes, unsigned big-endian
//   68 CSR table: N * { off u32, len u32 } of PEM text (each inside the block)
//   76 end of header
//
// Returns the address of an output table of N * 3 u32 words { status, a, b }, or a negative
// error (-1 malformed block, -2 bad CA key, -3 bad count / algorithm):
//   ST_OK        a = Certificate DER address, b = its length
//   ST_PARSE     a = the parse result area (result.ts): JS turns it into the same error text
//   ST_SINGLE    the batch does not handle this CSR (key or signature algorithm other than
//                P-256/ecdsa-with-SHA256 or Ed25519, unusual encodings): use the single path
//   ST_VERIFY    proof of possession failed; a = 1 ECDSA, 2 Ed25519
//   ST_BUILD     x509BuildTbs failed; a = its ERR_* code (as i32)
//   ST_SIGN      signing failed (r or s zero, probability ~2^-256)
// Everything lives in the arena until JS's next reset().
import { H_KEY, H_SIG, H_SIG_ALG, H_SIG_UNUSED, H_SPKI, H_SUBJECT, H_TBS, parseCsrPem, requestedSanLength, requestedSanValue } from './csr';
import { ed25519Sign, ed25519Verify } from './ed25519';
import { p256SignBatch, p256Verify } from './p256';
import { KEY_EC, KEY_ED25519 } from './parse-keys';
import { sanEntries, sanEntriesLen } from './san-entries';
import { sha256 } from './sha2';
import { sameBytes, x509AssembleCertificate, x509BuildTbs, x509Output } from './x509';
import { field, fLen, fPtr } from './param-block';

export const ST_OK: u32 = 0;
export const ST_PARSE: u32 = 1;
export const ST_SINGLE: u32 = 2;
export const ST_VERIFY: u32 = 3;
export const ST_BUILD: u32 = 4;
export const ST_SIGN: u32 = 5;

const SIG_P256: u32 = 1;
const SIG_ED25519: u32 = 4;
const HEADER: usize = 76;
const TBS_HEADER: usize = 100; // x509.ts parameter block header
const SERIAL_LEN: usize = 16;

const OID_ECDSA_SHA256 = memory.data<u8>([0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]);
const OID_ED25519 = memory.data<u8>([0x2b, 0x65, 0x70]);


@inline function hdr(res: usize, word: usize): usize {
  return <usize>load<u32>(res + (word << 2));
}

function put3(out: usize, i: usize, status: u32, a: u32 = 0, b: u32 = 0): void {
  const p = out + i * 12;
  store<u32>(p, status);
  store<u32>(p, a, 4);
  store<u32>(p, b, 8);
}

/** Issues one certificate per CSR; see the header comment for the block and the output. */
export function issueBatch(params: usize, paramsLen: usize): i32 {
  if (paramsLen < HEADER) return -1;
  const sigAlg = load<u32>(params);
  const count = <usize>load<u32>(params + 4);
  if (sigAlg != SIG_P256 && sigAlg != SIG_ED25519) return -3;
  if (count > 65536) return -3;
  if (!field(params, paramsLen, 36) || fLen != 32) return -2;
  const key = fPtr;
  if (!field(params, paramsLen, 44)) return -1;
  const issuer = fPtr, issuerLen = fLen;
  if (!field(params, paramsLen, 52)) return -1;
  const ski = fPtr, skiLen = fLen;
  if (!field(params, paramsLen, 60) || fLen != count * SERIAL_LEN) return -1;
  const serials = fPtr;
  if (!field(params, paramsLen, 68) || fLen != count * 8) return -1;
  const table = fPtr;
  for (let i: usize = 0; i < count; i++) {
    const off = <usize>load<u32>(table + i * 8);
    const len = <usize>load<u32>(table + i * 8 + 4);
    if (off > paramsLen || len > paramsLen - off) return -1;
  }

  const out = heap.alloc(count * 12 + 4);
  // TBS of each item that reached signing: address, length.
  const tbsAt = heap.alloc(count * 8 + 8);
  let signable: usize = 0;

  for (let i: usize = 0; i < count; i++) {
    const pem = params + <usize>load<u32>(table + i * 8);
    const pemLen = <usize>load<u32>(table + i * 8 + 4);
    // 1. Parse (Kubernetes ParseCSR, every check of the single path).
    const res = parseCsrPem(pem, pemLen);
    if (load<u32>(res) != 0) { put3(out, i, ST_PARSE, <u32>res); continue; }
    // csr.ts keeps these for the CSR parsed last: read them before another parse.
    const requestedSan = requestedSanValue();
    const requestedSanLen = requestedSanLength();

    // 2. Proof of possession, in WASM only for the two algorithms the single path verifies in
    // WASM, in their plain encodings; anything else goes back to the single path.
    const kind = <u32>hdr(res, H_KEY);
    const curve = <u32>hdr(res, H_KEY + 2);
    const oid = hdr(res, H_SIG_ALG), oidLen = hdr(res, H_SIG_ALG + 1), algParamsLen = hdr(res, H_SIG_ALG + 3);
    const info = hdr(res, H_TBS), infoLen = hdr(res, H_TBS + 1);
    const sig = hdr(res, H_SIG), sigLen = hdr(res, H_SIG + 1);
    const spki = hdr(res, H_SPKI), spkiLen = hdr(res, H_SPKI + 1);
    if (hdr(res, H_SIG_UNUSED) != 0 || algParamsLen != 0) { put3(out, i, ST_SINGLE); continue; }
    // The subjectPublicKey bits end the SPKI (parse-keys.ts checked their size and form).
    if (kind == KEY_EC && curve == 2 && sameBytes(oid, oidLen, OID_ECDSA_SHA256, 8)) {
      if (p256Verify(spki + spkiLen - 65, 65, info, infoLen, sig, sigLen) != 1) { put3(out, i, ST_VERIFY, 1); continue; }
    } else if (kind == KEY_ED25519 && sameBytes(oid, oidLen, OID_ED25519, 3)) {
      if (sigLen != 64 || ed25519Verify(spki + spkiLen - 32, info, infoLen, sig) != 1) { put3(out, i, ST_VERIFY, 2); continue; }
    } else {
      put3(out, i, ST_SINGLE);
      continue;
    }

    // 3. TBSCertificate: an x509.ts parameter block with the CSR's subject, SPKI and SAN names.
    let sanValue: usize = 0;
    let sanLen: usize = 0;
    if (requestedSan != 0) {
      sanValue = sanEntries(requestedSan, requestedSanLen);
      if (sanValue == 0) { put3(out, i, ST_SINGLE); continue; }
      sanLen = sanEntriesLen;
    }
    const subject = hdr(res, H_SUBJECT), subjectLen = hdr(res, H_SUBJECT + 1);
    const total = TBS_HEADER + SERIAL_LEN + issuerLen + subjectLen + spkiLen + skiLen + sanLen;
    const b = heap.alloc(total);
    // basicConstraints always; SKI only for a CA (Go: "no SubjectKeyId for non-CA certificates");
    // AKI only when the CA certificate has an SKI to copy; the subject as Go marshals the CSR's.
    const isCA = load<u32>(params + 32) & 1;
    const flags: u32 = isCA | 4 | (isCA != 0 ? 8 : 0) | (skiLen > 0 ? 16 : 0) | 128;
    store<u32>(b, flags);
    store<u32>(b + 4, sigAlg);
    store<f64>(b + 8, load<f64>(params + 8));
    store<f64>(b + 16, load<f64>(params + 16));
    store<u32>(b + 24, 0);
    store<u32>(b + 28, load<u32>(params + 24));
    store<u32>(b + 32, load<u32>(params + 28));
    let off = TBS_HEADER;
    let at: usize = 36;
    // Go's signer template has no SubjectKeyId or AuthorityKeyId of its own: both fields empty.
    const srcs: StaticArray<usize> = [serials + i * SERIAL_LEN, issuer, subject, spki, ski, sanValue, 0, 0];
    const lens: StaticArray<usize> = [SERIAL_LEN, issuerLen, subjectLen, spkiLen, skiLen, sanLen, 0, 0];
    for (let k = 0; k < 8; k++) {
      const n = unchecked(lens[k]);
      store<u32>(b + at, <u32>off);
      store<u32>(b + at + 4, <u32>n);
      if (n > 0) memory.copy(b + off, unchecked(srcs[k]), n);
      off += n;
      at += 8;
    }
    const tbsLen = x509BuildTbs(b, total);
    if (tbsLen < 0) { put3(out, i, ST_BUILD, <u32>tbsLen); continue; }
    store<u32>(tbsAt + i * 8, <u32>x509Output());
    store<u32>(tbsAt + i * 8 + 4, <u32>tbsLen);
    put3(out, i, ST_OK);
    signable++;
  }

  // 4. Signatures, then 5. the Certificates.
  if (sigAlg == SIG_P256) {
    const digests = heap.alloc(signable * 32 + 32);
    const sigs = heap.alloc(signable * 73 + 73);
    let j: usize = 0;
    for (let i: usize = 0; i < count; i++) {
      if (load<u32>(out + i * 12) != ST_OK) continue;
      sha256(<usize>load<u32>(tbsAt + i * 8), <usize>load<u32>(tbsAt + i * 8 + 4), digests + j * 32);
      j++;
    }
    const rc = p256SignBatch(key, digests, <u32>signable, sigs);
    if (rc < 0) return -2;
    j = 0;
    for (let i: usize = 0; i < count; i++) {
      if (load<u32>(out + i * 12) != ST_OK) continue;
      const slot = sigs + j * 73;
      j++;
      const n = <usize>load<u8>(slot);
      if (n == 0) { put3(out, i, ST_SIGN); continue; }
      assemble(out, i, tbsAt, sigAlg, slot + 1, n);
    }
    memory.fill(digests, 0, signable * 32);
  } else {
    const sig = heap.alloc(64);
    for (let i: usize = 0; i < count; i++) {
      if (load<u32>(out + i * 12) != ST_OK) continue;
      ed25519Sign(key, <usize>load<u32>(tbsAt + i * 8), <usize>load<u32>(tbsAt + i * 8 + 4), sig);
      assemble(out, i, tbsAt, sigAlg, sig, 64);
    }
  }
  return <i32>out;
}

function assemble(out: usize, i: usize, tbsAt: usize, sigAlg: u32, sig: usize, sigLen: usize): void {
  const n = x509AssembleCertificate(<usize>load<u32>(tbsAt + i * 8), <usize>load<u32>(tbsAt + i * 8 + 4), sigAlg, sig, sigLen);
  if (n < 0) put3(out, i, ST_BUILD, <u32>n);
  else put3(out, i, ST_OK, <u32>x509Output(), <u32>n);
}
