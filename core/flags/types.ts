// What a plugin declares for each command-line flag it owns. Values after parsing:
// bool -> boolean, string -> string, int/uint64/level/float/float32 -> number (float32 rounded as Go stores it), duration -> milliseconds (number),
// strings/stringArray -> string[], map, configurationMap and stringToString -> Record<string, string>, quantity -> number.

export type FlagType = 'bool' | 'string' | 'int' | 'uint64' | 'level' | 'float' | 'float32' | 'duration' | 'strings' | 'stringArray' | 'map' | 'configurationMap' | 'stringToString' | 'quantity';

export interface FlagSpec {
  /** Long name without dashes: `secure-port`. */
  readonly name: string;
  readonly type: FlagType;
  /**
   * The type --help names when it is not the type's own: `int32` for an upstream Int32Var (an
   * `int` is int32-ranged either way), as pflag prints each flag's Type().
   */
  readonly typeName?: string;
  /** Parsed-type default; omitted means the zero value of the type. */
  readonly default?: unknown;
  readonly help: string;
  /** Group heading in --help, as the spec's sections name them ("Serving, network and process"). */
  readonly section: string;
  /** One-letter alias: `v` for `--v`. */
  readonly shorthand?: string;
  /** Set: using the flag prints this deprecation notice. */
  readonly deprecated?: string;
  /**
   * With `deprecated`: keep the flag in --help, followed by `(DEPRECATED: <notice>)`, as pflag does
   * for a flag marked deprecated but not hidden (the kubelet's config-file flags).
   */
  readonly deprecatedShown?: boolean;
  /** Set: the flag is listed (so --help matches the spec) but refused at start-up with this reason. */
  readonly unsupported?: string;
  /** Allowed values (for string flags, or each element of a list flag). */
  readonly enum?: readonly string[];
  /** Extra check after parsing: return an error text, or undefined when fine. */
  readonly validate?: (value: unknown) => string | undefined;
  /** Bool flags only: the value of a bare `--flag` (default true). */
  readonly noOptValue?: string;
  /** Set: the config file may not give it (`--help`, `--version`: they ask for something, they configure nothing). */
  readonly commandLineOnly?: boolean;
  /**
   * Set: the value is a secret (a token, a password, a key given inline): the `-v=1` FLAG line
   * prints `<masked>` for a value that is set, never the value, and so do the errors that refuse it.
   */
  readonly sensitive?: boolean;
  /** Who declared it (set by the FlagSet from the tap name). */
  readonly owner?: string;
}

export interface FlagSet {
  define(spec: FlagSpec): void;
  /** The parsed value (or the default). Throws for an undeclared flag: that is a programming error. */
  get<T = unknown>(name: string): T;
  /** True when the flag was given on the command line or in the config file. */
  isSet(name: string): boolean;
  /** Like isSet, but a role profile's defaults and prepared files do not count. */
  isSetByOperator(name: string): boolean;
  /** True when the flag was given on the command line (the config file does not count). */
  isSetOnCommandLine(name: string): boolean;
  /** Where the value came from: 'command line', 'default', or the config file's description (file and field). */
  sourceOf(name: string): string;
  has(name: string): boolean;
  specs(): readonly FlagSpec[];
}
