// Values that change while the process runs (a watched file's content, a TLS configuration built
// from several), and their composition: a listener learns of a change without knowing its source.

export interface Changing<T> {
  current(): T;
  /** Calls `listener` with each new value; returns the unsubscribe. */
  onChange(listener: (value: T) => void): () => void;
}

/** A value that never changes (a self-signed pair kept in memory, a CA looked up once). */
export function fixed<T>(value: T): Changing<T> {
  return { current: () => value, onChange: () => () => {} };
}

/** `compute()` again whenever one of `sources` changes; `compute` reads the sources' current values. */
export function derived<T>(sources: readonly Changing<unknown>[], compute: () => T): Changing<T> {
  let value = compute();
  const listeners = new Set<(value: T) => void>();
  for (const s of sources) {
    s.onChange(() => {
      value = compute();
      for (const l of listeners) l(value);
    });
  }
  return {
    current: () => value,
    onChange: (listener) => {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
  };
}
