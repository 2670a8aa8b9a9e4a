// A signing-pool worker thread: takes batches, issues them with core/crypto issueCertificates (the
// WASM batch path for P-256 and Ed25519 CAs, one by one otherwise) and answers per item. Failed
// items are explained in the words of upstream's signer (parse, then proof of possession, then
// signing), which the batch result alone cannot tell apart.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { randomSerial } from '../crypto/serial.js';
import { parentPort } from 'node:worker_threads';
import { issueCertificates, parseCsr, verifyCsr } from '../crypto/index.js';
import type { BatchMessage, BatchReply, ItemResult, PoolCa } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('core/signing-pool/worker.js runs only as a worker thread');

// A rotated CA brings a new id; only the last few keys stay imported.
const MAX_KEYS = 8;
const keys = new Map<string, KeyObject>();

function keyOf(ca: PoolCa): KeyObject {
  let key = keys.get(ca.id);
  if (key) return key;
  key = createPrivateKey({ key: ca.privateKeyPem, format: 'pem' });
  if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value!);
  keys.set(ca.id, key);
  return key;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

function explain(request: string, error: Error): string {
  let csr;
  try {
    csr = parseCsr(request);
  } catch (e) {
    return `unable to parse certificate request: ${messageOf(e)}`;
  }
  try {
    verifyCsr(csr);
  } catch (e) {
    return `unable to verify certificate request signature: ${messageOf(e)}`;
  }
  return `failed to sign certificate: ${error.message}`;
}

function issue(m: BatchMessage): BatchReply {
  try {
    const results = issueCertificates(m.requests, { certificatePem: m.ca.certificatePem, privateKey: keyOf(m.ca) },
      { usages: m.usages, notBefore: new Date(m.notBefore), notAfter: new Date(m.notAfter), isCA: m.isCA },
      { serialNumbers: m.requests.map(randomSerial) });
    return {
      id: m.id,
      results: results.map((r, i): ItemResult => ('error' in r ? { error: explain(m.requests[i]!, r.error) } : { certificatePem: r.certificatePem })),
    };
  } catch (e) {
    return { id: m.id, failure: messageOf(e) };
  }
}

// The WASM core is compiled at the worker's start (a pool started ahead of its first request, see
// SigningPool.start), not in its first batch: parsing nothing instantiates it, then fails.
try {
  parseCsr('');
} catch {
  // Nothing to parse: the failure is the expected one.
}

port.on('message', (m: BatchMessage) => port.postMessage(issue(m)));
