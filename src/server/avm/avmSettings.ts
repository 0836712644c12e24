import type { Queryable } from '../db/database.js';
import { loadSettingsDocument } from '../discovery/settings.js';
import type { MatchOptions } from './softwareMatching.js';

/** The AVM configuration page, one document per company (`cartograph:settings/avm-configuration`). */
export const avmSettingsKind = 'cartograph:settings/avm-configuration';

export type AvmSettingsDocument = {
  software_matching: boolean; enrich_from_nvd: boolean; enrich_from_kev: boolean; enrich_from_epss: boolean;
  assume_unmatched_platforms: boolean; cpe_mappings: { software: string; cpe: string }[];
};

export const defaultAvmSettings: AvmSettingsDocument = {
  software_matching: true, enrich_from_nvd: true, enrich_from_kev: true, enrich_from_epss: true, assume_unmatched_platforms: true, cpe_mappings: [],
};

/** The AVM settings of the company that owns a discovery. */
export async function avmSettingsOfDiscovery(db: Queryable, discoveryId: number): Promise<AvmSettingsDocument> {
  const [discovery] = await db.query<{ company_id: number }>('select company_id from discoveries where id = $1', [discoveryId]);
  return discovery ? loadSettingsDocument(db, discovery.company_id, avmSettingsKind, defaultAvmSettings) : defaultAvmSettings;
}

/** The matcher's options from the settings: mappings keyed by software key or lower-cased name. */
export function matchOptionsOf(settings: AvmSettingsDocument): MatchOptions {
  return {
    overrides: new Map(settings.cpe_mappings.map((mapping) => [mapping.software.trim().toLowerCase(), mapping.cpe])),
    assumeUnmatchedPlatforms: settings.assume_unmatched_platforms,
  };
}
