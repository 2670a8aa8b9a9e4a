// What plat says its version is: the version.Info that /version serves and `--version` prints, and
// component-base's dynamic version (`--version=vX.Y.Z...`), which may replace the GitVersion's
// pre-release and build parts but never its major, minor and patch.
import { goPlatform } from './go-platform.js';
import type { VersionInfo } from './server/app.js';

/** The product name `--version` prints before the GitVersion, as upstream prints `Kubernetes`. */
export const PRODUCT = 'plat';

/** The GitVersion of a plat release: the Kubernetes minor it answers as, plat's own version as build metadata. */
export const defaultGitVersion = (version: string): string => `v1.32.0+plat.${version}`;

export function versionInfo(version: string, gitVersion = defaultGitVersion(version)): VersionInfo {
  // kubectl here is a version dispatcher that picks its client by `minor`: 32 selects kubectl 1.32.
  return {
    major: '1', minor: '32', gitVersion, gitCommit: 'plat', gitTreeState: 'clean',
    buildDate: '2026-11-22T00:00:00Z', goVersion: `node${process.versions.node}`, compiler: 'plat',
    platform: goPlatform(),
  };
}

/** verflag's `--version`: `Kubernetes <GitVersion>`, with plat's name. */
export const versionLine = (info: VersionInfo): string => `${PRODUCT} ${info.gitVersion}`;

/** verflag's `--version=raw`: Go's %#v of the version.Info. */
export function rawVersionLine(info: VersionInfo): string {
  const fields = Object.entries(info).map(([k, v]) => `${k[0]!.toUpperCase()}${k.slice(1)}:${JSON.stringify(v)}`);
  return `version.Info{${fields.join(', ')}}`;
}

const UINT64_MAX = 2n ** 64n - 1n;
// RE2's \s is ASCII whitespace only.
const VERSION_RE = /^[\t\n\f\r ]*v?([0-9]+(?:\.[0-9]+)*)(.*)$/s;
const EXTRA_RE = /^(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?[\t\n\f\r ]*$/;

/** apimachinery's version.ParseSemantic: [major, minor, patch], or its error text. */
export function parseSemantic(s: string): [bigint, bigint, bigint] | string {
  const m = VERSION_RE.exec(s);
  if (m === null) return `could not parse ${JSON.stringify(s)} as version`;
  const [, numbers = '', extra = ''] = m;
  const components = numbers.split('.');
  if (components.length !== 3) return `illegal version string ${JSON.stringify(s)}`;
  const out: bigint[] = [];
  for (const c of components) {
    if (c.startsWith('0') && c !== '0') return `illegal zero-prefixed version component ${JSON.stringify(c)} in ${JSON.stringify(s)}`;
    const n = BigInt(c);
    if (n > UINT64_MAX) {
      return `illegal non-numeric version component ${JSON.stringify(c)} in ${JSON.stringify(s)}: strconv.ParseUint: parsing ${JSON.stringify(c)}: value out of range`;
    }
    out.push(n);
  }
  if (extra !== '') {
    const e = EXTRA_RE.exec(extra);
    if (e === null) return `could not parse pre-release/metadata (${extra}) in version ${JSON.stringify(s)}`;
    for (const c of (e[1] ?? '').split('.')) {
      if (/^[0-9]+$/.test(c) && BigInt(c) <= UINT64_MAX && c.startsWith('0') && c !== '0') {
        return `illegal zero-prefixed version component ${JSON.stringify(c)} in ${JSON.stringify(s)}`;
      }
    }
  }
  return out as [bigint, bigint, bigint];
}

/** component-base's ValidateDynamicVersion: an error text, or undefined when `dynamic` may be reported. */
export function dynamicVersionError(dynamic: string, defaultVersion: string): string | undefined {
  if (dynamic === '') return 'version must not be empty';
  if (dynamic === defaultVersion) return undefined;
  const runtime = parseSemantic(dynamic);
  if (typeof runtime === 'string') return runtime;
  const def = parseSemantic(defaultVersion);
  if (typeof def === 'string') return def;
  if (runtime.some((n, i) => n !== def[i])) {
    return `version ${JSON.stringify(dynamic)} must match major/minor/patch of default version ${JSON.stringify(defaultVersion)}`;
  }
  return undefined;
}
