import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';

// A device's dependency map (src/server/inventory/dependencyMap.ts): its neighbours, users and software.

export type MapNode = { id: string | null; name: string; entity: 'device' | 'user' | 'software' };
export type MapLink = { node: MapNode; relation: string; direction: 'out' | 'in'; port: string | null; vlan: string | null };
export type DependencyMapResponse = {
  index_id: number; device: { id: string; name: string }; links: MapLink[]; software: MapNode[];
  more: { neighbours: number; users: number; software: number };
};

export const dependencyMapQuery = (deviceId: string, indexId: number) =>
  queryOptions({
    queryKey: ['device-dependency-map', deviceId, indexId],
    queryFn: () => apiFetch<DependencyMapResponse>('/devices/dependency-map', { query: { device: deviceId, index_id: indexId } }),
  });
