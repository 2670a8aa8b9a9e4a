// Structure-aware mutations of DER and PEM inputs for the crypto fuzzers: bit flips, truncation,
// length inflation (a DER length made larger or given a longer form), huge lengths, deep nesting,
// splices. A seeded PRNG keeps every case reproducible from its number.

export function prng(seed: number) {
  let s = (seed >>> 0) || 1;
  const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
  return { int: (n: number) => next() % Math.max(1, n), next };
}

/** Offsets of DER length octets found by walking the TLV structure as far as it parses. */
function lengthOffsets(der: Uint8Array): number[] {
  const out: number[] = [];
  const walk = (start: number, end: number, depth: number) => {
    let p = start;
    while (p + 2 <= end && depth < 64) {
      const tag = der[p]!;
      const lenAt = p + 1;
      let len = der[lenAt]!;
      let hdr = 2;
      if (len & 0x80) {
        const n = len & 0x7f;
        if (n === 0 || n > 3 || lenAt + n >= end) return;
        len = 0;
        for (let i = 1; i <= n; i++) len = (len << 8) | der[lenAt + i]!;
        hdr = 2 + n;
      }
      out.push(lenAt);
      if (tag & 0x20) walk(p + hdr, Math.min(end, p + hdr + len), depth + 1);
      p += hdr + len;
    }
  };
  walk(0, der.length, 0);
  return out;
}

export type Mutation = 'flip' | 'truncate' | 'inflate' | 'huge' | 'nest' | 'splice' | 'zero';
const MUTATIONS: Mutation[] = ['flip', 'flip', 'flip', 'truncate', 'inflate', 'inflate', 'huge', 'nest', 'splice', 'zero'];

export function mutateDer(input: Uint8Array, r: ReturnType<typeof prng>): { bytes: Uint8Array; mutation: Mutation } {
  const mutation = MUTATIONS[r.int(MUTATIONS.length)]!;
  const b = new Uint8Array(input);
  switch (mutation) {
    case 'flip': {
      for (let k = 1 + r.int(4); k > 0; k--) b[r.int(b.length)]! ^= 1 << r.int(8);
      return { bytes: b, mutation };
    }
    case 'truncate':
      return { bytes: b.subarray(0, r.int(b.length)), mutation };
    case 'inflate': {
      const offs = lengthOffsets(b);
      if (offs.length) {
        const at = offs[r.int(offs.length)]!;
        if (b[at]! & 0x80) b[at + 1]! = (b[at + 1]! + 1 + r.int(200)) & 0xff;
        else b[at] = Math.min(0x7f, b[at]! + 1 + r.int(40));
      }
      return { bytes: b, mutation };
    }
    case 'huge': {
      const offs = lengthOffsets(b);
      const at = offs.length ? offs[r.int(offs.length)]! : 1;
      const huge = [0x84, 0xff, 0xff, 0xff, 0xf0 + r.int(16)];
      return { bytes: new Uint8Array([...b.subarray(0, at), ...huge, ...b.subarray(at + 1)]), mutation };
    }
    case 'nest': {
      // thousands of nested SEQUENCEs: parsers must bound their depth, not their stack.
      const depth = 1000 + r.int(20000);
      const parts: number[] = [];
      for (let i = 0; i < depth; i++) parts.push(0x30, 0x80);
      return { bytes: new Uint8Array([...parts, ...b.subarray(0, 64)]), mutation };
    }
    case 'splice': {
      const from = r.int(b.length);
      const to = r.int(b.length);
      const n = 1 + r.int(32);
      return { bytes: new Uint8Array([...b.subarray(0, to), ...b.subarray(from, from + n), ...b.subarray(to)]), mutation };
    }
    case 'zero':
      return { bytes: b.fill(0, r.int(b.length), r.int(b.length) + 8), mutation };
  }
}

export function pemWrap(label: string, der: Uint8Array): string {
  return `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n')}\n-----END ${label}-----\n`;
}

/** PEM-level mutations: broken armour, headers, junk, many blocks, bad base64. */
export function mutatePem(pem: string, r: ReturnType<typeof prng>): string {
  switch (r.int(6)) {
    case 0: return pem.replace('-----END', '----END');
    case 1: return pem.replace('\n', '\nProc-Type: 4,ENCRYPTED\n\n');
    case 2: return `junk ${'x'.repeat(r.int(5000))}\n${pem}trailing`;
    case 3: return pem.repeat(2 + r.int(50));
    case 4: { const i = 30 + r.int(Math.max(1, pem.length - 60)); return pem.slice(0, i) + '!@#$' + pem.slice(i + 4); }
    default: return pem.replace(/\n/g, r.int(2) ? '\r\n' : '');
  }
}
