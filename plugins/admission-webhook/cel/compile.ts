// Compiling a match condition: parse with @bufbuild/cel, check (check.ts), plan. Errors read as
// cel-go's issues (`ERROR: <input>:1:5: ...` with the source line and a caret) behind upstream's
// `compilation failed: ` prefix, or `must evaluate to bool`.
import type { CelResult } from '@bufbuild/cel';
import { cel } from '../../../core/cel-modules.js';
import { checkExpression } from './check.js';
import { matchConditionEnv, matchConditionVars } from './environment.js';
import type { CelBindings } from './bindings.js';

export type Program = (bindings: CelBindings) => CelResult;

export type Compiled = { readonly program: Program } | { readonly error: string };

/** cel-go's issue rendering: location, message, then the line with a caret under the column. */
function renderIssue(source: string, offset: number, message: string): string {
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = offset - lineStart;
  const text = source.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${text}\n | ${'.'.repeat(column)}^`;
}

function offsetOf(source: string, line: number, column: number): number {
  const lines = source.split('\n');
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i]!.length + 1;
  return offset + Math.max(0, column - 1);
}

const cache = new Map<string, Compiled>();
const CACHE_LIMIT = 1024;

export function compileMatchCondition(expression: string): Compiled {
  const hit = cache.get(expression);
  if (hit) return hit;
  const compiled = compileUncached(expression);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(expression, compiled);
  return compiled;
}

function compileUncached(expression: string): Compiled {
  let parsed;
  try {
    parsed = cel().parse(expression);
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    const m = /^<input>:(\d+):(\d+): ([\s\S]*)$/.exec(text);
    const issue = m ? renderIssue(expression, offsetOf(expression, Number(m[1]), Number(m[2])), `Syntax error: ${m[3]}`) : `ERROR: <input>: Syntax error: ${text}`;
    return { error: `compilation failed: ${issue}` };
  }
  const { issues, type } = checkExpression(matchConditionEnv(), parsed, matchConditionVars);
  // cel-go lists issues in source order.
  const sorted = [...issues].sort((a, b) => a.offset - b.offset);
  if (sorted.length) return { error: `compilation failed: ${sorted.map((i) => renderIssue(expression, i.offset, i.message)).join('\n')}` };
  if (type !== 'bool') return { error: 'must evaluate to bool' };
  try {
    return { program: cel().plan(matchConditionEnv(), parsed) as Program };
  } catch (e) {
    return { error: `compilation failed: ERROR: <input>: ${e instanceof Error ? e.message : String(e)}` };
  }
}
