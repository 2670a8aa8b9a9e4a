// `wasm` and `wasm-batch`: the AssemblyScript crypto core through its typed wrappers in
// core/crypto/wasm/, composed into the issuing pipeline: wasmParseCsr -> P-256/Ed25519 verify over
// the CertificationRequestInfo bytes -> wasmBuildTbs -> sign -> wasmAssembleCertificate -> PEM.
// The wrappers are imported by computed specifier at run time: one not built yet, or not exporting
// what is used here, makes its rows "not available" instead of failing the build or the run.
import { createHash, createPrivateKey } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { keyUsagesFromStrings } from '../../../core/crypto/index.js';
import { checkIssued, checkSignature, checkTrue } from '../check.js';
import { guarded, type BenchImpl, type Op, type Preparation, type Prepared } from '../impl.js';
import { derChildren, type BenchInputs } from '../inputs.js';

type SigAlg = 'ecdsa-with-SHA256' | 'Ed25519';
interface ByteRange { offset: number; length: number }
interface WasmCsr {
  der: Uint8Array;
  commonName: string;
  extensions: Array<{ oid: string; value: Uint8Array }>;
  dnsNames: string[];
  emailAddresses: string[];
  ipAddresses: string[];
  uris: string[];
  signatureAlgorithm: string;
  publicKey: { spki: Uint8Array };
  ranges: { certificationRequestInfo: ByteRange; signature: ByteRange; subject: ByteRange; subjectPublicKeyInfo: ByteRange };
}

interface WasmApi {
  wasmP256Sign(priv: Uint8Array, msg: Uint8Array): Uint8Array;
  wasmP256Verify(pub: Uint8Array, msg: Uint8Array, derSig: Uint8Array): boolean;
  wasmP256SignBatch(priv: Uint8Array, digests: readonly Uint8Array[]): Uint8Array[];
  wasmEd25519Sign(seed: Uint8Array, msg: Uint8Array): Uint8Array;
  wasmEd25519Verify(pub: Uint8Array, msg: Uint8Array, sig: Uint8Array): boolean;
  wasmParseCsr(request: string | Uint8Array): WasmCsr;
  wasmValidateCertificatePem(data: string | Uint8Array): { ok: true; certificates: Uint8Array[] } | { ok: false; error: string };
  wasmBuildTbs(o: Record<string, unknown>): Uint8Array;
  wasmAssembleCertificate(tbs: Uint8Array, sigAlg: SigAlg, sig: Uint8Array): Uint8Array;
  wasmPemEncodeCertificate(der: Uint8Array): string;
}

/** The wrapper module (core/crypto/wasm/<file>) of each function used here. */
const HOME: Readonly<Record<keyof WasmApi, string>> = {
  wasmP256Sign: 'p256.js',
  wasmP256Verify: 'p256.js',
  wasmP256SignBatch: 'p256.js',
  wasmEd25519Sign: 'ed25519.js',
  wasmEd25519Verify: 'ed25519.js',
  wasmParseCsr: 'parse.js',
  wasmValidateCertificatePem: 'parse.js',
  wasmBuildTbs: 'x509.js',
  wasmAssembleCertificate: 'x509.js',
  wasmPemEncodeCertificate: 'x509.js',
};

/** Each wrapper module, or why it cannot be used. */
const modules = new Map<string, Promise<Record<string, unknown> | string>>();

function loadModule(file: string): Promise<Record<string, unknown> | string> {
  let m = modules.get(file);
  if (m === undefined) {
    const url = new URL(`../../../core/crypto/wasm/${file}`, import.meta.url).href;
    m = import(url).then((x: Record<string, unknown>) => x, (e: unknown) => `core/crypto/wasm/${file}: ${(e as Error).message.split('\n')[0]}`);
    modules.set(file, m);
  }
  return m;
}

/** The wrapper functions `names`; throws (-> "not available") naming the first one missing. */
async function api(...names: Array<keyof WasmApi>): Promise<WasmApi> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const m = await loadModule(HOME[name]);
    if (typeof m === 'string') throw new Error(m);
    if (typeof m[name] !== 'function') throw new Error(`core/crypto/wasm/${HOME[name]} does not export ${name}`);
    out[name] = m[name];
  }
  return out as unknown as WasmApi;
}

const slice = (der: Uint8Array, r: ByteRange) => der.subarray(r.offset, r.offset + r.length);

/** The subjectPublicKey bits of an SPKI (the SEC1 point for P-256, the 32-byte key for Ed25519). */
function keyBits(spki: Uint8Array): Uint8Array {
  const bits = derChildren(spki)[1]!;
  return spki.subarray(bits.body + 1, bits.end);
}

/** The CA key's sign and the CSR key's verify for the row's key type, and the wrapper functions they need. */
function primitives(inputs: BenchInputs) {
  const priv = inputs.ca.privateRaw;
  return inputs.keyType === 'p256'
    ? {
      sigAlg: 'ecdsa-with-SHA256' as const,
      signNeeds: 'wasmP256Sign' as const,
      verifyNeeds: 'wasmP256Verify' as const,
      sign: (w: WasmApi, m: Uint8Array) => w.wasmP256Sign(priv, m),
      verify: (w: WasmApi, pub: Uint8Array, m: Uint8Array, sig: Uint8Array) => w.wasmP256Verify(pub, m, sig),
    }
    : {
      sigAlg: 'Ed25519' as const,
      signNeeds: 'wasmEd25519Sign' as const,
      verifyNeeds: 'wasmEd25519Verify' as const,
      sign: (w: WasmApi, m: Uint8Array) => w.wasmEd25519Sign(priv, m),
      verify: (w: WasmApi, pub: Uint8Array, m: Uint8Array, sig: Uint8Array) => w.wasmEd25519Verify(pub, m, sig),
    };
}

async function prepareIssue(inputs: BenchInputs): Promise<Prepared> {
  const { sigAlg, sign, verify, signNeeds, verifyNeeds } = primitives(inputs);
  const w = await api('wasmParseCsr', verifyNeeds, 'wasmBuildTbs', signNeeds, 'wasmAssembleCertificate', 'wasmPemEncodeCertificate');
  const { keyUsage, extKeyUsage } = keyUsagesFromStrings(inputs.policy.usages);
  const run = () => {
    const csr = w.wasmParseCsr(inputs.csr.pem);
    const { der, ranges } = csr;
    if (csr.signatureAlgorithm !== sigAlg) throw new Error(`CSR signed with ${csr.signatureAlgorithm}, this row measures ${sigAlg}`);
    const spki = slice(der, ranges.subjectPublicKeyInfo);
    if (!verify(w, keyBits(spki), slice(der, ranges.certificationRequestInfo), slice(der, ranges.signature))) {
      throw new Error('CSR signature does not verify');
    }
    const tbs = w.wasmBuildTbs({
      notBefore: inputs.policy.notBefore,
      notAfter: inputs.policy.notAfter,
      keyUsage,
      extKeyUsage,
      // As the facade issues: the SAN rebuilt from the four kinds Go writes, no SKI on a leaf.
      dnsNames: csr.dnsNames,
      emailAddresses: csr.emailAddresses,
      ipAddresses: csr.ipAddresses,
      uris: csr.uris,
      issuerNameDer: inputs.ca.subjectNameDer,
      subjectNameDer: slice(der, ranges.subject),
      spkiDer: spki,
      sigAlg,
      subjectKeyIdentifier: false,
      issuerSki: inputs.ca.subjectKeyId,
    });
    return w.wasmPemEncodeCertificate(w.wasmAssembleCertificate(tbs, sigAlg, sign(w, tbs)));
  };
  checkIssued(run(), inputs);
  return { run, backend: 'wasm (parse, verify, build, sign, PEM)' };
}

async function prepareOp(op: Op, inputs: BenchInputs): Promise<Prepared> {
  switch (op) {
    case 'parse': {
      const w = await api('wasmParseCsr');
      if (w.wasmParseCsr(inputs.csr.pem).commonName !== 'system:node:bench-worker-1') throw new Error('parse: wrong commonName');
      return { run: () => w.wasmParseCsr(inputs.csr.pem), backend: 'wasm' };
    }
    case 'verify': {
      const { verify, verifyNeeds } = primitives(inputs);
      const w = await api('wasmParseCsr', verifyNeeds);
      const { der, ranges } = w.wasmParseCsr(inputs.csr.pem);
      const pub = keyBits(slice(der, ranges.subjectPublicKeyInfo));
      const info = slice(der, ranges.certificationRequestInfo);
      const sig = slice(der, ranges.signature);
      const run = () => verify(w, pub, info, sig);
      checkTrue(run(), 'verify');
      return { run, backend: 'wasm' };
    }
    case 'pem-validate': {
      const w = await api('wasmValidateCertificatePem');
      const run = () => {
        const r = w.wasmValidateCertificatePem(inputs.chainPem);
        if (!r.ok) throw new Error(`pem-validate: ${r.error}`);
        return r;
      };
      if (run().certificates.length !== 2) throw new Error('pem-validate: expected 2 certificates');
      return { run, backend: 'wasm' };
    }
    case 'sign': {
      const { sign, signNeeds } = primitives(inputs);
      const w = await api(signNeeds);
      const run = () => sign(w, inputs.message);
      checkSignature(run(), inputs);
      return { run, backend: 'wasm' };
    }
    case 'issue':
      return prepareIssue(inputs);
  }
}

export const wasmImpl: BenchImpl = {
  name: 'wasm',
  supports: () => true,
  prepare: (op, inputs): Promise<Preparation> => guarded(() => prepareOp(op, inputs)),
};

/** Digests signed per wasmP256SignBatch call: enough to amortise the shared inversions. */
export const SIGN_BATCH = 64;

/** `wasm-batch`: P-256 signing through the batch entry point (one key, many digests per call), and
 *  issue through issueCertificates (the WASM issueBatch entry point: parse, verify, build, sign and
 *  assemble for the whole batch in one call; PEM in TypeScript), SIGN_BATCH CSRs per call. */
export const wasmBatchImpl: BenchImpl = {
  name: 'wasm-batch',
  supports: (op, keyType) => (op === 'sign' && keyType === 'p256') || op === 'issue',
  prepare: (op, inputs): Promise<Preparation> => guarded(async () => {
    if (op === 'issue') {
      const { issueCertificates } = await import('../../../core/crypto/index.js');
      if (typeof issueCertificates !== 'function') throw new Error('core/crypto does not export issueCertificates');
      const ca = { certificatePem: inputs.ca.certificatePem, privateKey: createPrivateKey(inputs.ca.privateKeyPem) };
      const requests = Array.from({ length: SIGN_BATCH }, () => inputs.csr.pem);
      const run = () => issueCertificates(requests, ca, inputs.policy);
      const out = run();
      out.forEach((r, i) => {
        if ('error' in r) throw new Error(`issue batch: item ${i}: ${r.error.message}`);
        if (r.backend.sign !== 'wasm') throw new Error(`issue batch: item ${i} was not issued by the batch`);
        checkIssued(r.certificatePem, inputs);
      });
      return { run, backend: `wasm issueBatch (batches of ${SIGN_BATCH})`, opsPerCall: SIGN_BATCH };
    }
    const w = await api('wasmP256SignBatch');
    const digests = Array.from({ length: SIGN_BATCH }, (_, i) =>
      new Uint8Array(createHash('sha256').update(inputs.message).update(String(i)).digest()));
    const run = () => w.wasmP256SignBatch(inputs.ca.privateRaw, digests);
    const sigs = run();
    // node:crypto cannot verify over a given digest; @noble/curves checks the batch instead.
    sigs.forEach((s, i) => {
      if (!p256.verify(s, digests[i]!, inputs.ca.publicRaw, { prehash: false, format: 'der' })) throw new Error(`sign batch: signature ${i} does not verify`);
    });
    return { run, backend: `wasm (batches of ${SIGN_BATCH})`, opsPerCall: SIGN_BATCH };
  }),
};
