// What a plugin threw or rejected with, as text: plugins may throw anything, and an object must be
// shown as JSON (`{"code":7}`), not as "[object Object]".
export function thrownMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e !== 'object' || e === null) return String(e);
  try {
    return JSON.stringify(e) ?? String(e);
  } catch {
    return String(e);
  }
}
