// apimachinery's schema.ParseGroupVersion: an apiVersion read as group and version.

export interface GroupVersion { readonly group: string; readonly version: string }

/** "" and "/" are the empty GroupVersion, "v1" a version of the core group; more than one slash is an error (undefined). */
export function parseGroupVersion(apiVersion: string): GroupVersion | undefined {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

/** GroupVersion.String(): `group/version`, or the version alone for the core group. */
export const formatGroupVersion = (gv: GroupVersion): string => (gv.group ? `${gv.group}/${gv.version}` : gv.version);
