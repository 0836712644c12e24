import type { CatalogueAdapter } from '../adapters/catalogue.js';
import type { Queryable } from '../db/database.js';
import { loadSettingsDocument } from '../settings/settingsStore.js';
import { defaultRecommendationPolicy, type RecommendationPolicy, type WeakMatch } from './correlation/recommendations.js';
import { connectionSourcePrefix, type FieldOrdering } from './mergeAssets.js';

// When sources disagree and the configuration names no order for a field, prefer the sources closest to the
// machine: agents (EDR, MDM) over the directory, over the CMDB, over network scanners.
const groupPrecedence = ['edr', 'epp', 'mdm', 'ad', 'identity', 'cmdb', 'itam', 'cloud', 'vm', 'vulnerability_management', 'network', 'file', 'database'];

/** What a discovery runs with, read from the discovery-settings and advanced-configuration pages. */
export type DiscoverySettings = {
  concurrency: number; connectionTimeoutSeconds: number; snapshotsToKeep: number; ordering: FieldOrdering;
  /** Merge recommendations: which weak matches are proposed, and how many are kept per snapshot (the strongest first). */
  recommendations: { policy: RecommendationPolicy; kept: number };
};

/** The settings pages' documents are stored per company in the resources table under their schema id. */
export const discoverySettingsKind = 'cartograph:settings/discovery-settings';
export const discoveryScheduleKind = 'cartograph:settings/discovery-schedule';
export const advancedConfigurationKind = 'cartograph:settings/advanced-configuration';

/** The discovery-settings page as stored and served (`cartograph:settings/discovery-settings`). */
export type DiscoverySettingsDocument = { concurrency: number; connection_timeout_minutes: number; snapshots_to_keep: number };
/** The discovery-schedule page as stored (`cartograph:settings/discovery-schedule`). */
export type DiscoveryScheduleDocument = { enabled: boolean; cron: string; timezone: string };

/** The advanced-configuration page as stored and served (`cartograph:settings/advanced-configuration`): how merging decides. */
export type AdvancedConfigurationDocument = {
  generic_host_name_limit: number; recommendations_kept: number; recommended_matches: WeakMatch[]; minimum_score: number; ordering: Record<string, string[]>;
};

export const defaultSettingsDocument: DiscoverySettingsDocument = { concurrency: 4, connection_timeout_minutes: 30, snapshots_to_keep: 10 };
export const defaultAdvancedDocument: AdvancedConfigurationDocument = {
  generic_host_name_limit: defaultRecommendationPolicy.genericNameLimit, recommendations_kept: 5000,
  recommended_matches: [...defaultRecommendationPolicy.matches], minimum_score: defaultRecommendationPolicy.minimumScore, ordering: {},
};
export const defaultScheduleDocument: DiscoveryScheduleDocument = { enabled: false, cron: '0 2 * * *', timezone: 'UTC' };

/** The default source precedence: adapters ordered by their group's rank, then by slug. */
export function defaultSourceOrder(catalogue: Map<string, CatalogueAdapter>): string[] {
  const rank = (adapter: CatalogueAdapter) => Math.min(...adapter.groups.map((group) => groupPrecedence.indexOf(group)).filter((position) => position >= 0), groupPrecedence.length);
  return [...catalogue.values()].sort((left, right) => rank(left) - rank(right) || left.slug.localeCompare(right.slug)).map((adapter) => adapter.slug);
}

/** The settings a discovery runs with, from the discovery-settings and advanced-configuration pages' documents. */
export function discoverySettingsFrom(document: DiscoverySettingsDocument, advanced: AdvancedConfigurationDocument, catalogue: Map<string, CatalogueAdapter>): DiscoverySettings {
  return {
    concurrency: document.concurrency,
    connectionTimeoutSeconds: document.connection_timeout_minutes * 60,
    snapshotsToKeep: document.snapshots_to_keep,
    ordering: { byField: advanced.ordering, fallback: defaultSourceOrder(catalogue) },
    recommendations: {
      policy: { genericNameLimit: advanced.generic_host_name_limit, matches: advanced.recommended_matches, minimumScore: advanced.minimum_score },
      kept: advanced.recommendations_kept,
    },
  };
}

/** Settings before anyone changed the discovery-settings or advanced-configuration page. */
export function defaultDiscoverySettings(catalogue: Map<string, CatalogueAdapter>): DiscoverySettings {
  return discoverySettingsFrom(defaultSettingsDocument, defaultAdvancedDocument, catalogue);
}

/**
 * The connections a precedence list names (`connection:7`) that the company does not have, so a settings page
 * cannot rank a source that is not there (nor another company's).
 */
export async function unknownOrderingConnections(db: Queryable, companyId: number, ordering: Record<string, string[]>): Promise<number[]> {
  const named = [...new Set(Object.values(ordering).flat().filter((source) => source.startsWith(connectionSourcePrefix)).map((source) => Number(source.slice(connectionSourcePrefix.length))))];
  if (!named.length) return [];
  const known = new Set((await db.query<{ id: number }>('select id from connections where company_id = $1 and id = any($2::int[])', [companyId, named])).map((row) => row.id));
  return named.filter((id) => !known.has(id));
}

/** The settings a company's discoveries run with now. */
export async function loadDiscoverySettings(db: Queryable, companyId: number, catalogue: Map<string, CatalogueAdapter>): Promise<DiscoverySettings> {
  const [document, advanced] = await Promise.all([
    loadSettingsDocument(db, companyId, discoverySettingsKind, defaultSettingsDocument), loadSettingsDocument(db, companyId, advancedConfigurationKind, defaultAdvancedDocument),
  ]);
  return discoverySettingsFrom(document, advanced, catalogue);
}
