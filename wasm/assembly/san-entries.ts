// The subjectAltName names an issued certificate may carry, taken from a CSR's requested
// GeneralNames. Upstream signs from a template built out of the parsed CSR (DNSNames,
// EmailAddresses, IPAddresses, URIs), so Go's x509.CreateCertificate writes only those four kinds;
// otherName (a Windows UPN, say), directoryName, registeredID and every other form never reach
// the certificate. Copying the CSR's extnValue instead would let a requester slip in names that
// the approver and the signer's checks never looked at.
import { identifier, readTlv, tContent, tEnd } from './der';
import { SAN_DNS, SAN_EMAIL, SAN_IP, SAN_URI } from './x509-extensions';

export let sanEntriesLen: usize = 0;

/**
 * The x509.ts SAN entry list ({ u8 kind, u32 length, bytes }, CSR order; x509.ts writes the kinds
 * in Go's order) for a GeneralNames extnValue that parseSubjectAltNames (parse-names.ts) has
 * accepted. Returns its address (length in sanEntriesLen); 0 when the value does not read.
 */
export function sanEntries(value: usize, len: usize): usize {
  sanEntriesLen = 0;
  if (!readTlv(value, value + len)) return 0;
  let p = tContent;
  const end = tEnd;
  // An entry is 5 header bytes where its TLV had at least 2: 3x the value bounds the list.
  const out = heap.alloc(len * 3 + 8);
  let o: usize = 0;
  while (p < end) {
    if (!readTlv(p, end)) return 0;
    const id = identifier();
    const data = tContent;
    const n = tEnd - tContent;
    p = tEnd;
    let kind: u32;
    if (id == 0x82) kind = SAN_DNS;
    else if (id == 0x81) kind = SAN_EMAIL;
    else if (id == 0x86) kind = SAN_URI;
    else if (id == 0x87) kind = SAN_IP; // x509.ts writes an IPv4-mapped address as 4 bytes
    else continue;
    store<u8>(out + o, <u8>kind);
    store<u32>(out + o + 1, <u32>n);
    memory.copy(out + o + 5, data, n);
    o += 5 + n;
  }
  sanEntriesLen = o;
  return out;
}
