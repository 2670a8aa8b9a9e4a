// The command line, parsed the way pflag parses it for Kubernetes components, plus flag values
// from the config file. Three layers per flag: the declared default, the config file, the command
// line; the highest layer that was set wins, whatever order setFromConfig and parse run in.
import type { FlagSet, FlagSpec } from './types.js';
import { FlagError } from './flag-error.js';
import { suggest } from './suggest.js';
import { isOfType, parseConfigurationMap, parseMapPairs, parseScalar, splitCsv, zeroValue } from './parse-value.js';
import { renderHelp } from './help.js';
import { MASKED } from '../go-strip-password.js';

export { FlagError } from './flag-error.js';

interface Layer {
  value: unknown;
  /** The last text given, for messages from `validate`. */
  raw: string;
}

interface Entry {
  readonly spec: FlagSpec;
  config?: Layer & { source: string; byProfile: boolean };
  cli?: Layer;
}

export class Flags implements FlagSet {
  readonly #entries = new Map<string, Entry>();
  readonly #shorthands = new Map<string, Entry>();
  readonly #sections = new Map<string, FlagSpec[]>();
  /** Owner recorded on specs that do not name one: the host sets it to the tapping plugin's name. */
  owner: string | undefined;

  define(spec: FlagSpec): void {
    const owner = spec.owner ?? this.owner;
    const full: FlagSpec = owner !== undefined && spec.owner === undefined ? { ...spec, owner } : spec;
    // No `_`: the command line's `_` reads as `-` (wordSepNormalize), so such a flag could never be given.
    if (!/^[A-Za-z0-9][A-Za-z0-9.-]*$/.test(full.name)) throw new Error(`flag name ${JSON.stringify(full.name)} is not a valid flag name`);
    if (full.default !== undefined && !isOfType(full.type, full.default)) {
      throw new Error(`flag --${full.name} (${who(full)}): default ${JSON.stringify(full.default)} is not a parsed ${full.type} value`);
    }
    const existing = this.#entries.get(full.name);
    if (existing !== undefined) {
      throw new Error(`flag --${full.name} is defined twice: by ${who(existing.spec)} and by ${who(full)}`);
    }
    if (full.shorthand !== undefined) {
      if (full.shorthand.length !== 1) throw new Error(`flag --${full.name}: shorthand ${JSON.stringify(full.shorthand)} must be one character`);
      const other = this.#shorthands.get(full.shorthand);
      if (other !== undefined) {
        throw new Error(`shorthand -${full.shorthand} of --${full.name} (${who(full)}) is already used by --${other.spec.name} (${who(other.spec)})`);
      }
    }
    const entry: Entry = { spec: full };
    this.#entries.set(full.name, entry);
    if (full.shorthand !== undefined) this.#shorthands.set(full.shorthand, entry);
    const section = this.#sections.get(full.section);
    if (section === undefined) this.#sections.set(full.section, [full]);
    else section.push(full);
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  specs(): readonly FlagSpec[] {
    return [...this.#entries.values()].map((e) => e.spec);
  }

  get<T = unknown>(name: string): T {
    const e = this.#entry(name);
    if (e.cli !== undefined) return e.cli.value as T;
    if (e.config !== undefined) return e.config.value as T;
    return (e.spec.default ?? zeroValue(e.spec.type)) as T;
  }

  isSet(name: string): boolean {
    const e = this.#entry(name);
    return e.cli !== undefined || e.config !== undefined;
  }

  /**
   * True when the operator chose the value (command line or config file); a role profile's own
   * defaults and the files it prepares (`plat all`) do not count.
   */
  isSetByOperator(name: string): boolean {
    const e = this.#entry(name);
    return e.cli !== undefined || (e.config !== undefined && !e.config.byProfile);
  }

  /** True when the flag was given on the command line (the config file does not count). */
  isSetOnCommandLine(name: string): boolean {
    return this.#entry(name).cli !== undefined;
  }

  /** The text the command line gave `name` last; undefined when it gave none. */
  commandLineText(name: string): string | undefined {
    return this.#entry(name).cli?.raw;
  }

  /** Where the value of `name` came from. */
  sourceOf(name: string): string {
    const e = this.#entry(name);
    return e.cli !== undefined ? 'command line' : e.config !== undefined ? e.config.source : 'default';
  }

  /** Deprecated flags that were given (command line or config), for the host to print notices. */
  usedDeprecated(): Array<{ name: string; message: string }> {
    return this.#used().flatMap((s) => (s.deprecated !== undefined ? [{ name: s.name, message: s.deprecated }] : []));
  }

  /** Unsupported flags that were given, for the host to refuse start-up. */
  usedUnsupported(): Array<{ name: string; reason: string }> {
    return this.#used().flatMap((s) => (s.unsupported !== undefined ? [{ name: s.name, reason: s.unsupported }] : []));
  }

  /**
   * Parses the command line (without the program name and the role). pflag rules: `--f=v`,
   * `--f v`, `-v=3`, `-v 3`, `-v3`, bare booleans never take the next argument, a non-flag
   * argument is positional and parsing goes on, `--` ends the flags. Parsing again starts over.
   */
  parse(argv: readonly string[]): { positional: string[] } {
    for (const e of this.#entries.values()) delete e.cli;
    const positional: string[] = [];
    const touched = new Set<Entry>();
    let i = 0;
    const next = (): string | undefined => (i < argv.length ? argv[i++] : undefined);
    for (let arg = next(); arg !== undefined; arg = next()) {
      if (arg === '--') {
        positional.push(...argv.slice(i));
        break;
      }
      if (!arg.startsWith('-') || arg === '-') {
        positional.push(arg);
        continue;
      }
      if (arg.startsWith('--')) {
        const body = arg.slice(2);
        if (body === '' || body.startsWith('-') || body.startsWith('=')) throw new FlagError(`bad flag syntax: ${arg}`);
        const eq = body.indexOf('=');
        const name = eq === -1 ? body : body.slice(0, eq);
        const e = this.#entries.get(wordSepNormalize(name));
        if (e === undefined) throw new FlagError(`unknown flag: --${name}${this.#didYouMean(name)}`);
        let value: string;
        if (eq !== -1) value = body.slice(eq + 1);
        else if (takesNoValue(e.spec)) value = noOptValue(e.spec);
        else {
          const v = next();
          if (v === undefined) throw new FlagError(`flag needs an argument: --${name}`);
          value = v;
        }
        this.#setCli(e, value);
        touched.add(e);
        continue;
      }
      // Shorthands: `-v3`, `-v=3`, `-v 3`, and runs of boolean shorthands such as `-ab`.
      const shorts = arg.slice(1);
      for (let k = 0; k < shorts.length; k++) {
        const c = shorts[k] ?? '';
        if (c === '=') throw new FlagError(`bad flag syntax: ${arg}`);
        const e = this.#shorthands.get(c);
        if (e === undefined) {
          // `-secure-port`: a long flag written with one dash.
          const asLong = shorts.split('=')[0] ?? '';
          const long = k !== 0 ? '' : this.#entries.has(wordSepNormalize(asLong)) ? ` (did you mean --${wordSepNormalize(asLong)}?)` : this.#didYouMean(asLong);
          throw new FlagError(`unknown shorthand flag: '${c}' in ${arg}${long}`);
        }
        const rest = shorts.slice(k + 1);
        let value: string;
        if (rest.startsWith('=')) value = rest.slice(1);
        else if (takesNoValue(e.spec)) {
          this.#setCli(e, noOptValue(e.spec));
          touched.add(e);
          continue;
        } else if (rest !== '') value = rest;
        else {
          const v = next();
          if (v === undefined) throw new FlagError(`flag needs an argument: '${c}' in ${arg}`);
          value = v;
        }
        this.#setCli(e, value);
        touched.add(e);
        break;
      }
    }
    for (const e of touched) {
      const cli = e.cli;
      if (cli !== undefined) this.#validate(e.spec, cli.value, cli.raw, '');
    }
    return { positional };
  }

  /**
   * Flag values from the config file: JSON values of the flag's type, or texts parsed as on the
   * command line (`"30s"`, `"a,b"`, `"k=v"`). Each is checked as the command line would be; a
   * later call replaces earlier config values (role sections after the common ones), and the
   * command line always wins. `source` names where the values are; a function of the key names
   * the field too (a file's `/roles/controller-manager/flags/qps`), for errors and sourceOf.
   */
  setFromConfig(values: Record<string, unknown>, sourceOfKey: string | ((key: string) => string), from: 'operator' | 'profile' = 'operator'): void {
    for (const [key, value] of Object.entries(values)) {
      const source = typeof sourceOfKey === 'string' ? sourceOfKey : sourceOfKey(key);
      const name = key.replace(/^-{1,2}/, '');
      const e = this.#entries.get(wordSepNormalize(name));
      if (e === undefined) {
        const hint = suggest(name, this.#entries.keys());
        throw new FlagError(`${source}: unknown flag "${name}"${hint !== undefined ? ` (did you mean "${hint}"?)` : ''}`);
      }
      if (e.spec.commandLineOnly) throw new FlagError(`${source}: flag "${name}" can only be given on the command line`);
      const raw = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
      let parsed: unknown;
      try {
        parsed = fromConfigValue(e.spec, value);
      } catch (err) {
        throw new FlagError(`${source}: invalid value ${e.spec.sensitive ? shownRaw(e.spec, raw) : quoteRaw(value)} for flag "${name}": ${parseReason(e.spec, err)}`);
      }
      this.#validate(e.spec, parsed, raw, `${source}: `);
      e.config = { value: parsed, raw, source, byProfile: from === 'profile' };
    }
  }

  /**
   * Kubernetes-style --help; `width` 0 disables wrapping (pflag's convention). Sections come in
   * `sectionOrder` (cliflag.NamedFlagSets' order), those it does not name after them as they were
   * first defined (the global flags last); a section's flags are sorted by name, as pflag's
   * FlagUsages prints them, not in the order plugins happened to define them. A role profile's own
   * defaults (setFromConfig from 'profile') are shown as the defaults, since they are.
   */
  help(commandLine: string, description: string, width = 100, sectionOrder: readonly string[] = []): string {
    const rank = (section: string) => { const i = sectionOrder.indexOf(section); return i === -1 ? sectionOrder.length : i; };
    // Array.prototype.sort is stable: unnamed sections keep their definition order.
    const sections = [...this.#sections].sort(([a], [b]) => rank(a) - rank(b));
    const shown = new Map(sections.map(([section, specs]) => [section, [...specs].sort(byName).map((spec) => {
      const c = this.#entries.get(spec.name)?.config;
      return c?.byProfile ? { ...spec, default: c.value } : spec;
    })]));
    return renderHelp(shown, commandLine, description, width);
  }

  #entry(name: string): Entry {
    const e = this.#entries.get(name);
    if (e === undefined) throw new Error(`flag --${name} is not defined`);
    return e;
  }

  #used(): FlagSpec[] {
    return [...this.#entries.values()].filter((e) => e.cli !== undefined || e.config !== undefined).map((e) => e.spec);
  }

  #didYouMean(name: string): string {
    const hint = suggest(wordSepNormalize(name), this.#entries.keys());
    return hint !== undefined ? ` (did you mean --${hint}?)` : '';
  }

  /** One command-line occurrence. Lists and maps accumulate, but the first occurrence replaces lower layers (pflag). */
  #setCli(e: Entry, raw: string): void {
    const { spec } = e;
    let v: unknown;
    try {
      v = parseScalar(spec.type, raw);
    } catch (err) {
      throw new FlagError(`invalid argument ${shownRaw(spec, raw)} for "${flagLabel(spec)}" flag: ${parseReason(spec, err)}`);
    }
    const enumError = checkEnum(spec, v);
    if (enumError !== undefined) throw new FlagError(`invalid argument ${shownRaw(spec, raw)} for "${flagLabel(spec)}" flag: ${enumError}`);
    const prev = e.cli?.value;
    if (prev !== undefined && (spec.type === 'strings' || spec.type === 'stringArray')) v = [...(prev as string[]), ...(v as string[])];
    else if (prev !== undefined && (spec.type === 'map' || spec.type === 'configurationMap' || spec.type === 'stringToString')) v = { ...(prev as Record<string, string>), ...(v as Record<string, string>) };
    e.cli = { value: v, raw };
  }

  #validate(spec: FlagSpec, value: unknown, raw: string, prefix: string): void {
    const enumError = checkEnum(spec, value);
    const own = enumError === undefined ? spec.validate?.(value) : undefined;
    // The plugin's own text: with a sensitive flag, the value is cut out where it quotes it whole.
    const msg = enumError ?? (own !== undefined && spec.sensitive && raw !== '' ? own.split(raw).join(MASKED) : own);
    if (msg === undefined) return;
    const label = prefix === '' ? `"${flagLabel(spec)}" flag` : `flag "${spec.name}"`;
    throw new FlagError(`${prefix}invalid ${prefix === '' ? 'argument' : 'value'} ${shownRaw(spec, raw)} for ${label}: ${msg}`);
  }
}

/** A refused value as an error quotes it: a sensitive flag's is not shown (errors go to the log). */
function shownRaw(spec: FlagSpec, raw: string): string {
  return JSON.stringify(spec.sensitive ? MASKED : raw);
}

/**
 * Why a value does not parse. Go's texts quote the value, escaped, or a piece of it (time's
 * `unknown unit "xs3cr3t"`, pflag's bare `pair must be formatted as key=value`): a sensitive
 * flag's reason names only the type it wants, so that no form of the value can get through.
 */
function parseReason(spec: FlagSpec, err: unknown): string {
  return spec.sensitive ? `not a valid ${spec.typeName ?? spec.type} value (a sensitive flag's value is not shown)` : messageOf(err);
}

/**
 * cliflag.WordSepNormalizeFunc, which component-base's cli.Run (and the kubelet) set on every flag
 * set: `--leader_elect` is `--leader-elect`. Flags are declared with dashes, so only lookups need it.
 */
function wordSepNormalize(name: string): string {
  return name.replaceAll('_', '-');
}

/** Go's sort.Strings on the names (byte order). */
function byName(a: FlagSpec, b: FlagSpec): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function who(spec: FlagSpec): string {
  return spec.owner !== undefined ? JSON.stringify(spec.owner) : 'an unnamed owner';
}

/** pflag names a flag with a shorthand as `-v, --v` in its messages. */
function flagLabel(spec: FlagSpec): string {
  return spec.shorthand !== undefined ? `-${spec.shorthand}, --${spec.name}` : `--${spec.name}`;
}

function takesNoValue(spec: FlagSpec): boolean {
  return spec.type === 'bool' || spec.noOptValue !== undefined;
}

function noOptValue(spec: FlagSpec): string {
  return spec.noOptValue ?? 'true';
}

/**
 * Enum membership of a value or of each list element. An empty string passes only for a string
 * flag whose default is empty: there "" is the unset value (`--tls-min-version=` asks for the
 * default, as Kubernetes reads it). Where the default is a value (`--logging-format` text) an empty
 * one is as unsupported as any other text, and an empty list element (`RBAC,`) never names a choice.
 */
function checkEnum(spec: FlagSpec, value: unknown): string | undefined {
  const allowed = spec.enum;
  if (allowed === undefined) return undefined;
  const emptyIsUnset = spec.type === 'string' && (spec.default === undefined || spec.default === '');
  const items = Array.isArray(value) ? (value as unknown[]) : [value];
  for (const item of items) {
    if (typeof item !== 'string' || allowed.includes(item) || (item === '' && emptyIsUnset)) continue;
    return `${spec.sensitive ? 'a value' : JSON.stringify(item)} is not one of: ${allowed.join(', ')}`;
  }
  return undefined;
}

/** A config-file value in the flag's parsed representation. */
function fromConfigValue(spec: FlagSpec, value: unknown): unknown {
  const { type } = spec;
  if (value === null || value === undefined) throw new Error('a value is required');
  if (typeof value === 'string') return parseScalar(type, value);
  if (Array.isArray(value)) {
    if (type === 'strings' || type === 'stringArray') return value.map((x, i) => scalarText(x, `element ${i}`));
    if (type === 'map') return Object.fromEntries(value.flatMap((x, i) => parseMapPairs(scalarText(x, `element ${i}`))));
    if (type === 'configurationMap') return Object.assign({}, ...value.map((x, i) => parseConfigurationMap(scalarText(x, `element ${i}`)))) as Record<string, string>;
    throw new Error(`expected a single ${type} value, not a list`);
  }
  if (typeof value === 'object') {
    if (type !== 'map' && type !== 'configurationMap' && type !== 'stringToString') throw new Error(`expected a ${type} value, not an object`);
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, scalarText(x, `key ${JSON.stringify(k)}`)]));
  }
  if (typeof value === 'boolean') {
    if (type !== 'bool') throw new Error(`expected a ${type} value, not a boolean`);
    return value;
  }
  if (typeof value === 'number') {
    // Strings read from YAML as numbers (`version: 1.30`) may have lost digits: only whole numbers pass.
    if (type === 'string' && !Number.isInteger(value)) throw new Error('expected a string (quote the value)');
    if (type === 'strings' || type === 'stringArray') return splitCsv(String(value));
    // Through the text path so that range and unit rules are the command line's: 30 for a duration is "missing unit".
    return parseScalar(type, String(value));
  }
  throw new Error(`expected a ${type} value, not ${typeof value}`);
}

function scalarText(x: unknown, where: string): string {
  if (typeof x === 'string') return x;
  if (typeof x === 'number' || typeof x === 'boolean') return String(x);
  throw new Error(`${where}: expected a string, not ${x === null ? 'null' : Array.isArray(x) ? 'a list' : typeof x}`);
}

function quoteRaw(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
