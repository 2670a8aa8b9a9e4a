// `kubectl get` columns of the RBAC kinds, as upstream's printRole / printRoleBinding (the server
// prints wide, so the priority-1 subject columns are always there; kubectl shows them with -o wide).
import { age } from '../../core/api/human-duration.js';
import type { TableColumn, TablePrinter } from '../../core/registry/resource.js';
import { CLUSTER_ROLE_BINDING_ROLE_REF, ROLE_BINDING_ROLE_REF } from './schema.js';
import { GROUP_KIND, SERVICE_ACCOUNT_KIND, USER_KIND, type Role, type RoleBinding } from './types.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../core/api/object-meta-docs.js';

const column = (name: string, type: TableColumn['type'], description: string, priority = 0, format = ''): TableColumn =>
  ({ name, type, format, description, priority });

const NAME = column('Name', 'string', NAME_DESCRIPTION, 0, 'name');
const CREATION = CREATION_TIMESTAMP_DESCRIPTION;

export const roleTable: TablePrinter<Role> = {
  columns: [NAME, column('Created At', 'date', CREATION)],
  // Go prints the zero time for a missing timestamp.
  cells: (obj) => [obj.metadata.name ?? '', obj.metadata.creationTimestamp ?? '0001-01-01T00:00:00Z'],
};

/** SubjectsStrings: users, groups, and service accounts as `namespace/name`. */
function subjectColumns(b: RoleBinding): [string, string, string] {
  const users: string[] = [], groups: string[] = [], sas: string[] = [];
  for (const s of b.subjects ?? []) {
    if (s?.kind === SERVICE_ACCOUNT_KIND) sas.push(`${s.namespace ?? ''}/${s.name ?? ''}`);
    else if (s?.kind === USER_KIND) users.push(s.name ?? '');
    else if (s?.kind === GROUP_KIND) groups.push(s.name ?? '');
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

const bindingTable = (roleRefDoc: string, what: string): TablePrinter<RoleBinding> => ({
  columns: [
    NAME,
    column('Role', 'string', roleRefDoc),
    column('Age', 'string', CREATION),
    column('Users', 'string', `Users in the ${what}`, 1),
    column('Groups', 'string', `Groups in the ${what}`, 1),
    column('ServiceAccounts', 'string', `ServiceAccounts in the ${what}`, 1),
  ],
  cells: (obj, now) => [
    obj.metadata.name ?? '', `${obj.roleRef?.kind ?? ''}/${obj.roleRef?.name ?? ''}`, age(obj.metadata.creationTimestamp, now),
    ...subjectColumns(obj),
  ],
});

export const roleBindingTable = bindingTable(ROLE_BINDING_ROLE_REF, 'roleBinding');
export const clusterRoleBindingTable = bindingTable(CLUSTER_ROLE_BINDING_ROLE_REF, 'clusterRoleBinding');
