// cosmiconfig loaders, replacing its defaults so that an error names the file and, for the data
// formats, the line and column: Node's JSON.parse often reports neither, plat prefers the `yaml`
// package (already a dependency) to cosmiconfig's js-yaml, and cosmiconfig's JS loader retries a
// failed import() with require(), which on Node 20.19+ hides a syntax error behind a require(esm)
// message.
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { DocumentOptions, ParseOptions, SchemaOptions } from 'yaml';
import { yaml } from '../yaml-module.js';
import { ConfigError } from './config-error.js';
import { syntaxErrorPlace } from './syntax-error-place.js';

/** 1-based line and column of a string offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

export function loadJsonFile(filepath: string, content: string): unknown {
  const text = content.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const at = jsonErrorOffset(text);
    const { line, column } = lineColumn(text, at.offset);
    throw new ConfigError(`${filepath}: line ${line}, column ${column}: JSON syntax error: ${at.problem}`, { cause: err });
  }
}

/**
 * `options` choose how plain scalars resolve: plat's own config files are YAML 1.2; a Kubernetes
 * file read through this loader passes GO_YAML (core/api/go-yaml.ts), as upstream reads it.
 */
export function loadYamlFile(filepath: string, content: string, options: ParseOptions & DocumentOptions & SchemaOptions = {}): unknown {
  const doc = yaml().parseDocument(content, { ...options, uniqueKeys: true, prettyErrors: false });
  const first = doc.errors[0];
  if (first !== undefined) {
    const { line, column } = lineColumn(content, first.pos[0]);
    const where = `line ${line}, column ${column}: `;
    throw new ConfigError(`${filepath}: ${where}YAML syntax error: ${first.message.split('\n')[0] ?? ''}`, { cause: first });
  }
  return doc.toJS({ maxAliasCount: 100 }) as unknown;
}

/**
 * JS config files, ESM or CommonJS alike: the default export (module.exports for CommonJS). An ES
 * module without one (`export const plugins = [...]`) is a mistake, not an empty config: plat
 * would otherwise start without the plugins the file lists.
 */
export async function loadJsFile(filepath: string): Promise<unknown> {
  const url = pathToFileURL(filepath).href;
  let ns: Record<string, unknown>;
  try {
    ns = (await import(url)) as Record<string, unknown>;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new ConfigError(`${filepath}: cannot load the config file: ${message}${syntaxErrorPlace(err, filepath)}`, { cause: err });
  }
  if (!('default' in ns)) {
    const names = Object.keys(ns);
    throw new ConfigError(`${filepath}: has no default export (${names.length ? `it exports: ${names.join(', ')}` : 'it exports nothing'})`);
  }
  return ns['default'];
}

/**
 * TS config files, the way cosmiconfig's TS loader does it: transpiled (types stripped, not
 * checked) to a temporary .mjs next to the file so its relative imports resolve, imported,
 * removed. Needs the `typescript` package, which plat only has as a development dependency.
 */
export async function loadTsFile(filepath: string, content: string): Promise<unknown> {
  let ts: typeof import('typescript');
  try {
    ts = ((await import('typescript')) as { default: typeof import('typescript') }).default;
  } catch (err) {
    throw new ConfigError(`${filepath}: cannot load the config file: a .ts config needs the typescript package installed`, { cause: err });
  }
  const out = ts.transpileModule(content, {
    fileName: filepath,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
  });
  // transpileModule writes what it guessed the broken text meant (`plugins: [ };` becomes an
  // empty list): a config that does not parse is refused, as a .mjs one is, not half read.
  const syntax = (out.diagnostics ?? []).find((d) => d.category === ts.DiagnosticCategory.Error);
  if (syntax !== undefined) {
    const { line, column } = lineColumn(content, syntax.start ?? 0);
    throw new ConfigError(`${filepath}: line ${line}, column ${column}: TypeScript syntax error: ${ts.flattenDiagnosticMessageText(syntax.messageText, ' ')}`);
  }
  const js = out.outputText;
  const tmp = `${filepath}.${randomUUID()}.mjs`;
  try {
    await writeFile(tmp, js);
  } catch (err) {
    throw new ConfigError(`${filepath}: cannot load the config file: cannot write the transpiled file next to it: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  try {
    return await loadJsFile(tmp);
  } catch (err) {
    throw err instanceof ConfigError ? new ConfigError(err.message.split(tmp).join(filepath), { cause: err.cause }) : err;
  } finally {
    await rm(tmp, { force: true });
  }
}

/**
 * Where a JSON text stops being JSON, found by a small recursive-descent scan. Only run after
 * JSON.parse failed, so it need not build values.
 */
export function jsonErrorOffset(text: string): { offset: number; problem: string } {
  let i = 0;
  class Stop { constructor(readonly offset: number, readonly problem: string) {} }
  const fail = (problem: string): never => {
    throw new Stop(i, i >= text.length ? 'unexpected end of input' : `${problem}, found ${JSON.stringify(text[i])}`);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] ?? '')) i++;
  };
  const literal = (word: string) => {
    for (const c of word) {
      if (text[i] !== c) fail(`expected ${JSON.stringify(word)}`);
      i++;
    }
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('unterminated string');
      if (c === '"') { i++; return; }
      if (c !== undefined && c < ' ') fail('control character in string');
      if (c === '\\') {
        i++;
        const e = text[i];
        if (e === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) { i += k; fail('bad \\u escape'); }
          i += 5;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail('bad escape');
      }
      i++;
    }
  };
  const number = () => {
    const m = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i));
    if (m === null || m[0] === '' || m[0] === '-') fail('expected a value');
    i += m?.[0].length ?? 0;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++; ws();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a double-quoted property name');
        string(); ws();
        if (text[i] !== ':') fail("expected ':'");
        i++; value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return; }
        fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++; ws();
      if (text[i] === ']') { i++; return; }
      for (;;) {
        value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return; }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    number();
  };
  try {
    value(); ws();
    if (i < text.length) fail('unexpected data after the value');
    return { offset: 0, problem: 'invalid JSON' }; // JSON.parse disagreed with the scan; point at the start
  } catch (e) {
    if (e instanceof Stop) return { offset: e.offset, problem: e.problem };
    throw e;
  }
}
