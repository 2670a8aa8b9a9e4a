// Loads the AssemblyScript crypto core (wasm/build/plat-crypto.wasm) once, synchronously, and
// gives the facade a small typed door to it: copy bytes in, call, copy bytes out. Nothing outside
// core/crypto imports this file.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The raw exports every wasm/assembly file adds to (see wasm/assembly/index.ts). */
export interface CryptoExports {
  readonly memory: WebAssembly.Memory;
  alloc(size: number): number;
  reset(): void;
  readonly [name: string]: unknown;
}

// dist/core/crypto/wasm/instance.js -> <package root>/wasm/build/plat-crypto.wasm
const WASM_PATH = fileURLToPath(new URL('../../../../wasm/build/plat-crypto.wasm', import.meta.url));

export class WasmAbort extends Error {
  constructor(message: string) { super(message); this.name = 'WasmAbort'; }
}

let instance: CryptoExports | undefined;

function readAsString(memory: WebAssembly.Memory, ptr: number): string {
  if (!ptr) return '';
  // AssemblyScript strings: UTF-16 code units, byte length stored 4 bytes before the data.
  const len = new Uint32Array(memory.buffer, ptr - 4, 1)[0]! >>> 1;
  return String.fromCharCode(...new Uint16Array(memory.buffer, ptr, len));
}

export function wasm(): CryptoExports {
  if (instance) return instance;
  const module = new WebAssembly.Module(readFileSync(WASM_PATH));
  let memory: WebAssembly.Memory | undefined;
  const inst = new WebAssembly.Instance(module, {
    env: {
      abort(msg: number, file: number, line: number, col: number): never {
        const m = memory ? readAsString(memory, msg) : '';
        const f = memory ? readAsString(memory, file) : '';
        throw new WasmAbort(`crypto core aborted: ${m} (${f}:${line}:${col})`);
      },
    },
  });
  instance = inst.exports as unknown as CryptoExports;
  memory = instance.memory;
  return instance;
}

/** Copies `bytes` into the arena; returns the address. Call `wasm().reset()` first, once per operation. */
export function put(bytes: Uint8Array): number {
  const w = wasm();
  const ptr = w.alloc(bytes.length || 1);
  new Uint8Array(w.memory.buffer, ptr, bytes.length).set(bytes);
  return ptr;
}

/** A copy of `len` bytes at `ptr` (the arena is reused by the next call). */
export function take(ptr: number, len: number): Uint8Array {
  return new Uint8Array(wasm().memory.buffer.slice(ptr, ptr + len));
}
