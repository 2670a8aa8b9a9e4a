// Continue tokens in apiserver's format: base64url (no padding) of
// {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<next key, relative to the resource prefix>"}.
import { errors } from '../api/errors.js';

export interface ContinueToken { revision: number; start: string }

export function encodeContinue(revision: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: revision, start })).toString('base64url');
}

export function decodeContinue(token: string): ContinueToken {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw errors.badRequest('continue key is not valid: illegal base64 data');
  }
  const p = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (p.v !== 'meta.k8s.io/v1') throw errors.badRequest('continue key is not valid: server does not recognize this encoded key');
  if (typeof p.rv !== 'number' || !Number.isInteger(p.rv) || p.rv <= 0) {
    throw errors.badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (typeof p.start !== 'string' || p.start.length === 0 || p.start.includes('..') || p.start.startsWith('/')) {
    throw errors.badRequest('continue key is not valid: encoded start key begins with an invalid path segment');
  }
  return { revision: p.rv, start: p.start };
}
