import { hasPermission } from '../../app/session/session';
import type { EntityLinks } from '../../renderers';

export const softwareGroupSchema = 'cartograph:entities/software-group';
export const softwareGroupsListPath = '/software-inventory/groups';
/** The form's `{groupId}` for a new group: the software inventory's routes have one form route, for both. */
export const newGroupId = 'new';

const formPath = (id: string | number) => `${softwareGroupsListPath}/edit/${encodeURIComponent(String(id))}`;

/** Where the software group pages are (they sit under the software inventory, not at the generic paths). */
export function softwareGroupLinks(): EntityLinks {
  const canChange = hasPermission('appinventory.change_group');
  return {
    list: softwareGroupsListPath,
    create: canChange && hasPermission('appinventory.add_group') ? formPath(newGroupId) : null,
    edit: canChange ? formPath : null,
    detail: null,
  };
}
