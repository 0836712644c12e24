import type { DiscoveryResponse } from './discoveriesApi';

/** Spec §4's derived lists of discoveries (newest first, as the API answers them). */
export function discoveryLists(discoveries: readonly DiscoveryResponse[]) {
  const completed = discoveries.filter((discovery) => discovery.status === 'done');
  return {
    running: discoveries.filter((discovery) => discovery.status === 'running'),
    completed,
    failed: discoveries.filter((discovery) => discovery.status === 'error'),
    nonFailed: discoveries.filter((discovery) => discovery.status !== 'error'),
    /** The first completed in the list. */
    latestCompleted: completed[0] ?? null,
    /** The first in the list. */
    last: discoveries[0] ?? null,
  };
}

/** Spec §4: setting a discovery replaces the first entry when the ids match, otherwise it goes in front. */
export function withDiscovery(discoveries: readonly DiscoveryResponse[], discovery: DiscoveryResponse): DiscoveryResponse[] {
  return discoveries[0]?.id === discovery.id ? [discovery, ...discoveries.slice(1)] : [discovery, ...discoveries];
}
