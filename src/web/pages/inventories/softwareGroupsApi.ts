import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';

export type SoftwareGroupResponse = { id: number; name: string; description: string; query: string; software: string[] };
export type SoftwareGroupBody = Omit<SoftwareGroupResponse, 'id'>;

export const softwareGroupsPath = '/appinventory/groups';

/** The company's software groups, for the add-to-group dialog (the schema caps a company's groups far below this). */
export const softwareGroupChoicesQuery = () =>
  queryOptions({
    queryKey: ['resource-list', softwareGroupsPath, 'choices'],
    queryFn: () => apiFetch<{ count: number; results: SoftwareGroupResponse[] }>(softwareGroupsPath, { query: { size: 1000, ordering: 'name' } }),
  });

export const createSoftwareGroup = (body: SoftwareGroupBody) => apiFetch<SoftwareGroupResponse>(softwareGroupsPath, { method: 'POST', body, silent: true });

/** Adds software picked by hand to a group, keeping what it held. */
export function addSoftwareToGroup(group: SoftwareGroupResponse, software: string[]) {
  const held = [...new Set([...group.software, ...software])];
  return apiFetch<SoftwareGroupResponse>(`${softwareGroupsPath}/${group.id}`, { method: 'PUT', body: { software: held }, silent: true });
}
