// What `plat csr <sub> --help` says of each subcommand (subcommand-help.ts lays it out): approve,
// deny and get in kubectl certificate approve/deny's and kubectl get's words, with plat's syntax.
import { createFlags } from './csr-create-flags.js';
import { decideFlags } from './csr-decide.js';
import { getFlags, listFlags } from './csr-show.js';
import { waitFlags } from './csr-wait.js';
import type { SubcommandHelp } from './subcommand-help.js';

export const CSR_HELP: Readonly<Record<string, SubcommandHelp>> = {
  create: {
    use: 'plat csr create --signer NAME [options]',
    long: `Create a certificate signing request with a new private key.

The key is generated here and written to <out-dir>/<name>.key (0600, never over an existing file)
before the request is sent. With --wait, wait until the certificate is issued and write it to
<out-dir>/<name>.crt; a denial or failure ends the command with its reason and message.`,
    examples: `  # Request a client certificate for user alice in group dev, and wait for it
  plat csr create --signer platform/apiserver-client --name alice --cn alice --org dev --wait

  # Request one and print the created CSR as YAML (the key is still written to ./<name>.key)
  plat csr create --signer platform/apiserver-client --cn alice -o yaml`,
    flags: createFlags,
  },
  get: {
    use: 'plat csr get NAME... [options]',
    long: `Display one or many certificate signing requests.

Prints a table of the most important information about the named CSRs, or the objects as JSON or
YAML. With --watch (one NAME), prints a line for every change to it.`,
    examples: `  # Show CSR 'csr-sqgzp' in ps output format
  plat csr get csr-sqgzp

  # Show CSR 'csr-sqgzp' in JSON output format
  plat csr get csr-sqgzp -o json

  # Watch CSR 'csr-sqgzp' until it changes no more (interrupt to stop)
  plat csr get csr-sqgzp -w`,
    flags: getFlags,
  },
  list: {
    use: 'plat csr list [options]',
    long: `List certificate signing requests.

Prints a table of all CSRs, or those the selectors match; with --watch, then a line for every change.`,
    examples: `  # List all CSRs
  plat csr list

  # List the CSRs for one signer, in JSON output format
  plat csr list --field-selector spec.signerName=platform/apiserver-client -o json`,
    flags: listFlags,
  },
  approve: {
    use: 'plat csr approve NAME... [options]',
    long: `Approve a certificate signing request.

plat csr approve allows a cluster admin to approve a certificate signing request (CSR). This action
tells a certificate signing controller to issue a certificate to the requester with the attributes
requested in the CSR.

SECURITY NOTICE: Depending on the requested attributes, the issued certificate can potentially grant
a requester access to cluster resources or to authenticate as a requested identity. Before approving
a CSR, ensure you understand what the signed certificate can do.`,
    examples: `  # Approve CSR 'csr-sqgzp'
  plat csr approve csr-sqgzp`,
    flags: () => decideFlags('approve'),
  },
  deny: {
    use: 'plat csr deny NAME... [options]',
    long: `Deny a certificate signing request.

plat csr deny allows a cluster admin to deny a certificate signing request (CSR). This action tells
a certificate signing controller to not to issue a certificate to the requester.`,
    examples: `  # Deny CSR 'csr-sqgzp'
  plat csr deny csr-sqgzp`,
    flags: () => decideFlags('deny'),
  },
  wait: {
    use: 'plat csr wait NAME [options]',
    long: `Wait for a certificate signing request to be issued, and print or write its certificate.

A denial or failure ends the wait with the condition's reason and message (exit 1), as does --timeout.`,
    examples: `  # Wait up to a minute for CSR 'alice' and write the certificate to ./alice.crt
  plat csr wait alice --timeout 1m --out-dir .`,
    flags: waitFlags,
  },
};
