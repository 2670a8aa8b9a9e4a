// kubectl's `get nodes` columns (pkg/printers/internalversion printNode): NAME STATUS ROLES AGE
// VERSION, and with -o wide (priority 1) INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION
// CONTAINER-RUNTIME. The server always sends every column; kubectl hides the wide ones.
import { age } from '../../core/api/human-duration.js';
import { LABEL_NODE_ROLE, LABEL_NODE_ROLE_PREFIX } from '../../core/nodes/node-labels.js';
import { NODE_READY, type Node } from '../../core/nodes/node-object.js';
import type { TableColumn, TablePrinter } from '../../core/registry/resource.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../core/api/object-meta-docs.js';

const column = (name: string, description: string, priority = 0, format = ''): TableColumn => ({ name, type: 'string', format, description, priority });
const ADDRESSES = 'List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses';

const columns: readonly TableColumn[] = [
  column('Name', NAME_DESCRIPTION, 0, 'name'),
  column('Status', 'The status of the node'),
  column('Roles', 'The roles of the node'),
  column('Age', CREATION_TIMESTAMP_DESCRIPTION),
  column('Version', 'Kubelet Version reported by the node.'),
  column('Internal-IP', ADDRESSES, 1),
  column('External-IP', ADDRESSES, 1),
  column('OS-Image', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
  column('Kernel-Version', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
  column('Container-Runtime', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
];

/** findNodeRoles: `node-role.platform/<role>` keys and the value of `platform/role`, sorted and unique. */
export function nodeRoles(node: Node): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith(LABEL_NODE_ROLE_PREFIX)) {
      const role = k.slice(LABEL_NODE_ROLE_PREFIX.length);
      if (role) roles.add(role);
    } else if (k === LABEL_NODE_ROLE && v !== '') roles.add(v);
  }
  return [...roles].sort();
}

/** Ready, NotReady or Unknown, then SchedulingDisabled for a cordoned node. */
export function nodeStatusText(node: Node): string {
  const ready = node.status?.conditions?.find((c) => c.type === NODE_READY);
  const status = [ready ? (ready.status === 'True' ? NODE_READY : `Not${NODE_READY}`) : 'Unknown'];
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

const firstAddress = (node: Node, type: string): string => node.status?.addresses?.find((a) => a.type === type)?.address ?? '<none>';
const orUnknown = (s: string | undefined): string => (s ? s : '<unknown>');

export const nodeTable: TablePrinter<Node> = {
  columns,
  cells(node, now) {
    const info = node.status?.nodeInfo;
    return [
      node.metadata.name ?? '', nodeStatusText(node), nodeRoles(node).join(',') || '<none>', age(node.metadata.creationTimestamp, now),
      info?.kubeletVersion ?? '',
      firstAddress(node, 'InternalIP'), firstAddress(node, 'ExternalIP'),
      orUnknown(info?.osImage), orUnknown(info?.kernelVersion), orUnknown(info?.containerRuntimeVersion),
    ];
  },
};
