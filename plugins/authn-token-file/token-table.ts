// The --token-auth-file contents and the constant-time lookup over them.
//
// File format (upstream tokenfile.NewCSV): CSV records `token,user,uid[,"group1,group2"]`; more
// columns are ignored. A record with fewer than 3 columns, or a CSV syntax error, fails start-up.
// A record with an empty token is skipped with a warning; a repeated token warns and the later
// record wins. A 4th column is split on ',' as is, so an empty 4th column gives the group ""
// (upstream does the same). The file is read once, at start-up.
//
// Lookup: only SHA-256 digests of the tokens are kept, and a presented token's digest is compared
// against every entry with crypto.timingSafeEqual, without stopping at a match, so neither the
// time taken nor the comparison count depends on which entry (if any) matched. JavaScript gives
// no hard guarantee (the JIT may compile the final select to a branch); what is avoided is the
// early exit and the data-dependent work of a Map lookup or a string comparison.
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { UserInfo } from '../../core/authn/user.js';
import type { Logger } from '../../core/log.js';
import { osErrorText } from '../../core/go-os-error.js';
import { StartupError } from '../../core/plugin.js';
import { CsvError, parseCsv } from './csv.js';

export type DigestCompare = (a: Buffer, b: Buffer) => boolean;

interface Entry {
  readonly digest: Buffer;
  readonly user: UserInfo;
}

/** SHA-256 of a token's bytes. Tokens are handled as bytes (latin1 strings), like Go strings. */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(Buffer.from(token, 'latin1')).digest();
}

export class TokenTable {
  readonly #entries: readonly Entry[];
  readonly #compare: DigestCompare;

  constructor(entries: readonly Entry[], compare: DigestCompare = timingSafeEqual) {
    this.#entries = entries;
    this.#compare = compare;
  }

  get size(): number { return this.#entries.length; }

  /** The user of `token`, or undefined. `token` is a latin1 string (one char per byte). */
  lookup(token: string): UserInfo | undefined {
    // A char above 0xff cannot come from an HTTP header and would alias a byte when encoded.
    if (/[^\x00-\xff]/.test(token)) return undefined;
    const digest = tokenDigest(token);
    let found: UserInfo | undefined;
    for (const entry of this.#entries) {
      const equal = this.#compare(digest, entry.digest);
      found = equal ? entry.user : found;
    }
    return found;
  }
}

export interface ParsedTokenFile {
  readonly entries: readonly Entry[];
  readonly warnings: readonly string[];
}

const fromBytes = (s: string): string => Buffer.from(s, 'latin1').toString('utf8');

/** Parses token file text (latin1, one char per byte); `path` only names the file in messages. */
export function parseTokenFile(text: string, path: string): ParsedTokenFile {
  let records;
  try {
    records = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvError) throw new StartupError(`token file '${path}': ${err.message}`);
    throw err;
  }
  const byToken = new Map<string, UserInfo>();
  const warnings: string[] = [];
  let recordNum = 0;
  for (const { fields, line } of records) {
    if (fields.length < 3) {
      throw new StartupError(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${fields.length} (line ${line})`);
    }
    recordNum++;
    const [token = '', name = '', uid = '', groups] = fields;
    if (token === '') {
      warnings.push(`empty token has been found in token file '${path}', record number '${recordNum}' (line ${line})`);
      continue;
    }
    if (byToken.has(token)) {
      warnings.push(`duplicate token has been found in token file '${path}', record number '${recordNum}' (line ${line})`);
    }
    byToken.set(token, {
      name: fromBytes(name),
      uid: fromBytes(uid),
      groups: groups === undefined ? [] : fromBytes(groups).split(','),
    });
  }
  return { entries: [...byToken].map(([token, user]) => ({ digest: tokenDigest(token), user })), warnings };
}

export function loadTokenFile(path: string, log: Logger): TokenTable {
  let text: string;
  try {
    text = readFileSync(path, 'latin1');
  } catch (err) {
    // tokenfile.NewCSV's error, which kube-apiserver prints as it is.
    throw new StartupError(osErrorText('open', path, err));
  }
  const parsed = parseTokenFile(text, path);
  for (const warning of parsed.warnings) log.warn(warning);
  return new TokenTable(parsed.entries);
}
