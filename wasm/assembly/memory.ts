// Memory for the JS boundary: a bump arena (the stub runtime) reset before every call from JS.
// JS copies inputs in with alloc(), calls an export, reads the outputs, and the next call's
// reset() frees everything at once: no per-object frees, no GC, no fragmentation.

/** Reserves `size` bytes (8-byte aligned) and returns their address. */
export function alloc(size: usize): usize {
  return heap.alloc(size);
}

/** Frees everything alloc() and the module allocated since the last reset. */
export function reset(): void {
  heap.reset();
}
