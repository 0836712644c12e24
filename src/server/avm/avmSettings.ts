import type { Queryable } from '../db/database.js';
import { loadSettingsDocument } from '../settings/settingsStore.js';
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

/** The matcher's options from the settings: mappings keyed by software key or lower-cased name. */
export function matchOptionsOf(settings: AvmSettingsDocument): MatchOptions {
  return {
    overrides: new Map(settings.cpe_mappings.map((mapping) => [mapping.software.trim().toLowerCase(), mapping.cpe])),
    assumeUnmatchedPlatforms: settings.assume_unmatched_platforms,
  };
}

/** The vulnerability inventory configuration page, one document per company. */
export const vulnerabilityInventorySettingsKind = 'cartograph:settings/vulnerability-inventory-configuration';

export type VulnerabilityInventorySettings = {
  critical_from_score: number; high_from_score: number; medium_from_score: number; excluded_sources: string[]; fixed_findings_retention_days?: number;
};

/** FIRST's CVSS v3.1 bands (specification, section 5) until an administrator changes them. */
export const defaultVulnerabilityInventorySettings: VulnerabilityInventorySettings = { critical_from_score: 9, high_from_score: 7, medium_from_score: 4, excluded_sources: [] };

/** Both settings pages of the company that owns a discovery. */
export async function vulnerabilitySettingsOfDiscovery(db: Queryable, discoveryId: number): Promise<{ avm: AvmSettingsDocument; inventory: VulnerabilityInventorySettings }> {
  const [discovery] = await db.query<{ company_id: number }>('select company_id from discoveries where id = $1', [discoveryId]);
  if (!discovery) return { avm: defaultAvmSettings, inventory: defaultVulnerabilityInventorySettings };
  return {
    avm: await loadSettingsDocument(db, discovery.company_id, avmSettingsKind, defaultAvmSettings),
    inventory: await loadSettingsDocument(db, discovery.company_id, vulnerabilityInventorySettingsKind, defaultVulnerabilityInventorySettings),
  };
}
