// metadata.ownerReferences, as apimachinery's ValidateOwnerReferences checks them on create and
// update (api/validation/objectmeta.go): each reference names a parseable apiVersion with a
// version, a kind, a name and a uid, is not a v1 Event, and at most one is the controller.
import { fieldError, validateEach, type FieldError } from '../api/field-errors.js';
import { goOwnerReference, goSlice } from '../api/go-object-meta.js';
import type { OwnerReference } from '../api/meta.js';

const PATH = 'metadata.ownerReferences';

/** schema.ParseGroupVersion, whose error FromAPIVersionAndKind turns into an empty group and version. */
function groupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return { group: '', version: '' };
}

/** What the objects an owner reference may not name are (BannedOwners), as GroupVersionKind.String() prints them. */
const BANNED_OWNERS = new Set(['/v1, Kind=Event']);

function referenceErrors(ref: OwnerReference): FieldError[] {
  const out: FieldError[] = [];
  const apiVersion = ref.apiVersion ?? '';
  const kind = ref.kind ?? '';
  const { group, version } = groupVersion(apiVersion);
  if (!version) out.push(fieldError.invalid(`${PATH}.apiVersion`, apiVersion, 'version must not be empty'));
  if (!kind) out.push(fieldError.invalid(`${PATH}.kind`, kind, 'must not be empty'));
  if (!ref.name) out.push(fieldError.invalid(`${PATH}.name`, ref.name ?? '', 'must not be empty'));
  if (!ref.uid) out.push(fieldError.invalid(`${PATH}.uid`, ref.uid ?? '', 'must not be empty'));
  const gvk = `${group}/${version}, Kind=${kind}`;
  if (BANNED_OWNERS.has(gvk)) {
    out.push({ type: 'FieldValueInvalid', field: PATH, message: `Invalid value: ${goOwnerReference(ref)}: ${gvk} is disallowed from being an owner` });
  }
  return out;
}

/**
 * Upstream prints the whole list in every "Only one reference" error; a body of many controller
 * references would make that a thousand copies of megabytes, so after the first (always
 * reported: a second controller is refused however long the list) these errors stop once their
 * values add up to this many characters; the reference checks go on, to the 1000-error cap.
 */
const CONTROLLER_ERRORS_BUDGET = 4 * 1024 * 1024;

export function validateOwnerReferences(refs: readonly OwnerReference[] | undefined): FieldError[] {
  let firstController = '';
  let list: string | undefined;
  let spent = 0;
  return validateEach([], refs, (ref) => {
    const out = referenceErrors(ref);
    if (ref.controller === true) {
      const current = `${ref.kind ?? ''}/${ref.name ?? ''}`;
      if (!firstController) firstController = current;
      else {
        list ??= goSlice('v1.OwnerReference', refs, goOwnerReference);
        const first = spent === 0;
        spent += list.length;
        if (first || spent <= CONTROLLER_ERRORS_BUDGET) {
          out.push({
            type: 'FieldValueInvalid', field: PATH,
            message: `Invalid value: ${list}: Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
          });
        }
      }
    }
    return out;
  });
}
