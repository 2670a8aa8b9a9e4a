// gopkg.in/yaml.v3's Marshal of a JSON value, as gnostic writes it into an Any's `yaml` (every
// style cleared: block mappings and sequences, indent 4, `{}` and `[]` for empty ones, one
// trailing newline). Strings a YAML reader would take for something else, or that plain style
// cannot carry, are double-quoted; the decoders that read these (yaml.v2 and v3) take JSON's
// escapes there. Only the simple values OpenAPI extensions and defaults hold need exact bytes.

const INDENT = '    ';
// Plain scalars yaml.v3 would resolve to a bool, null, number or timestamp, or read as YAML 1.1 bools.
const NOT_A_STRING = /^(?:true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|y|Y|n|N|null|Null|NULL|~|[-+]?(?:\.[0-9]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|0[xXoObB][0-9a-fA-F_]+|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}.*)$/;
const PLAIN = /^[A-Za-z0-9_/(][A-Za-z0-9_./()=+-]*(?:[ ,][A-Za-z0-9_./()=+-]+)*$/;

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(v).replace(/e\+?/, 'e+');
  const s = String(v);
  return PLAIN.test(s) && !NOT_A_STRING.test(s) ? s : JSON.stringify(s);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isEmpty = (v: unknown) => (Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0);
const isCollection = (v: unknown) => (Array.isArray(v) || isObject(v)) && !isEmpty(v);

function lines(v: unknown, indent: string): string[] {
  if (Array.isArray(v) && v.length) {
    return v.flatMap((item) => {
      if (!isCollection(item)) return [`${indent}- ${inline(item)}`];
      // A collection in a sequence starts on the dash's line, its lines two columns in.
      const [first = '', ...rest] = lines(item, `${indent}  `);
      return [`${indent}- ${first.slice(indent.length + 2)}`, ...rest];
    });
  }
  if (isObject(v) && Object.keys(v).length) {
    return Object.entries(v).flatMap(([k, x]) => (isCollection(x)
      ? [`${indent}${scalar(k)}:`, ...lines(x, indent + INDENT)]
      : [`${indent}${scalar(k)}: ${inline(x)}`]));
  }
  return [`${indent}${inline(v)}`];
}

const inline = (v: unknown) => (Array.isArray(v) ? '[]' : isObject(v) ? '{}' : scalar(v));

export function yamlV3(v: unknown): string {
  return `${lines(v, '').join('\n')}\n`;
}
