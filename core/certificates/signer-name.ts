// ValidateSignerName (k8s-behaviour §1.2 step 4), with the project decision of §0 item 1: the
// well-known signers live under the single-label domain `platform`, which upstream's
// "at least two segments" rule would reject, so that one rule is skipped for exactly `platform`.
import { fieldError, goQuote, type FieldError } from '../api/field-errors.js';

const DNS1123_LABEL_MAX = 63;
const DNS1123_SUBDOMAIN_MAX = 253;
/** Domain + path + one label + the `/` and a `.`: what still fits a certificate field. */
const SIGNER_NAME_MAX = DNS1123_SUBDOMAIN_MAX + DNS1123_SUBDOMAIN_MAX + DNS1123_LABEL_MAX + 1 + 1;

/** The domain of the well-known signers. */
export const PLATFORM_SIGNER_DOMAIN = 'platform';

const LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const SUBDOMAIN_FMT = `${LABEL_FMT}(\\.${LABEL_FMT})*`;
const labelRe = new RegExp(`^${LABEL_FMT}$`);
const subdomainRe = new RegExp(`^${SUBDOMAIN_FMT}$`);

/** apimachinery's RegexError; its join leaves two spaces before `or`, which clients see verbatim. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) out += ' or ';
    out += `'${ex}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

const maxLenError = (n: number): string => `must be no more than ${n} characters`;
const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** validation.IsDNS1123Label: the messages, in apimachinery's order. */
export function isDns1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!labelRe.test(value)) {
    if (subdomainRe.test(value)) errs.push('must not contain dots');
    else {
      errs.push(regexError(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        LABEL_FMT, 'my-name', '123-abc'));
    }
  }
  return errs;
}

/** validation.IsDNS1123Subdomain. */
export function isDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!subdomainRe.test(value)) {
    errs.push(regexError(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
      SUBDOMAIN_FMT, 'example.com'));
  }
  return errs;
}

export function validateSignerName(field: string, signerName: string): FieldError[] {
  const errs: FieldError[] = [];
  if (signerName.length === 0) return [fieldError.required(field)];

  const segments = signerName.split('/');
  if (segments.length !== 2) {
    // A missing or doubled `/` leaves nothing sensible to check the path against.
    return [fieldError.invalid(field, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  }
  const [domain, path] = segments as [string, string];

  if (byteLength(domain) > DNS1123_SUBDOMAIN_MAX) errs.push(fieldError.tooLong(field, DNS1123_SUBDOMAIN_MAX));

  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const msgs = isDns1123Label(label);
    if (msgs.length > 0) {
      // Later labels would only repeat the same complaint, so upstream stops at the first.
      for (const m of msgs) errs.push(fieldError.invalid(field, domain, `validating label ${goQuote(label)}: ${m}`));
      break;
    }
  }

  if (domainLabels.length < 2 && domain !== PLATFORM_SIGNER_DOMAIN) {
    errs.push(fieldError.invalid(field, domain, 'should be a domain with at least two segments separated by dots'));
  }

  for (const part of path.split('.')) {
    const msgs = isDns1123Subdomain(part);
    if (msgs.length > 0) {
      for (const m of msgs) errs.push(fieldError.invalid(field, path, `validating label ${goQuote(part)}: ${m}`));
      break;
    }
  }

  if (byteLength(signerName) > SIGNER_NAME_MAX) errs.push(fieldError.tooLong(field, SIGNER_NAME_MAX));
  return errs;
}
