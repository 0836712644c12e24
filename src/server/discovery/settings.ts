import type { CatalogueAdapter } from '../adapters/catalogue.js';
import type { DiscoverySettings } from './pipeline.js';

// When sources disagree and the configuration names no order for a field, prefer the sources closest to the
// machine: agents (EDR, MDM) over the directory, over the CMDB, over network scanners.
const groupPrecedence = ['edr', 'epp', 'mdm', 'ad', 'identity', 'cmdb', 'itam', 'cloud', 'vm', 'vulnerability_management', 'network', 'file', 'database'];

/** The default source precedence: adapters ordered by their group's rank, then by slug. */
export function defaultSourceOrder(catalogue: Map<string, CatalogueAdapter>): string[] {
  const rank = (adapter: CatalogueAdapter) => Math.min(...adapter.groups.map((group) => groupPrecedence.indexOf(group)).filter((position) => position >= 0), groupPrecedence.length);
  return [...catalogue.values()].sort((left, right) => rank(left) - rank(right) || left.slug.localeCompare(right.slug)).map((adapter) => adapter.slug);
}

/** Settings a discovery runs with (the discovery-settings page changes them per company). */
export function defaultDiscoverySettings(catalogue: Map<string, CatalogueAdapter>): DiscoverySettings {
  return { concurrency: 4, connectionTimeoutSeconds: 30 * 60, snapshotsToKeep: 10, ordering: { byField: {}, fallback: defaultSourceOrder(catalogue) } };
}
