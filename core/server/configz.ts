// /configz, as component-base's configz package: a component registers its configuration under a
// name, and the handler answers `{"<name>": <value>, ...}` (names sorted, as Go marshals a map) in
// encoding/json's text, `application/json` without a charset and with nosniff. The handler looks
// at neither the method nor the query: any request the authorizer lets through gets the same body.
// A value encoding/json refuses (NaN, ±Inf) is http.Error's plain-text 500 with Go's chained text.
import type Koa from 'koa';
import { goJsonMarshal, GoJsonUnsupportedValue } from '../api/go-json-marshal.js';

export const CONFIGZ_PATH = '/configz';

/** The configurations one component serves (upstream's package-level registry). */
export class Configz {
  readonly #configs = new Map<string, unknown>();

  set(name: string, value: unknown): void {
    this.#configs.set(name, value);
  }

  entries(): Record<string, unknown> {
    return Object.fromEntries(this.#configs);
  }
}

const registries = new WeakMap<object, Configz>();

/** The registry of `host`'s component, made on first use (keyed by host, as componentHealthChecks). */
export function componentConfigz(host: object): Configz {
  let configz = registries.get(host);
  if (!configz) registries.set(host, (configz = new Configz()));
  return configz;
}

/** Writes the /configz answer for `configs` (name → value). */
export function writeConfigz(ctx: Koa.Context, configs: Readonly<Record<string, unknown>>): void {
  ctx.set('X-Content-Type-Options', 'nosniff');
  const sorted = Object.fromEntries(Object.keys(configs).sort().map((k) => [k, configs[k]]));
  let body: string;
  try {
    body = goJsonMarshal(sorted);
  } catch (e) {
    if (!(e instanceof GoJsonUnsupportedValue)) throw e;
    // Each value is marshalled by Config.MarshalJSON, so Go's error names that method and type.
    ctx.status = 500;
    ctx.set('Content-Type', 'text/plain; charset=utf-8');
    ctx.body = `error marshaling json: json: error calling MarshalJSON for type *configz.Config: ${e.message}\n`;
    return;
  }
  ctx.status = 200;
  ctx.set('Content-Type', 'application/json');
  ctx.body = body;
}
