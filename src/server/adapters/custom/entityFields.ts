import { identifyingFields } from '../../discovery/correlation/identifiers.js';
import type { EntityKind } from '../engine.js';
import { fieldsOfEntity } from '../files/fieldMapping.js';

/** The entities a custom adapter's rows may describe, and the adapters-page category each is filed under. */
export const customEntities = { device: 'device', user: 'user', software: 'application', vulnerability: 'vulnerability', certificate: 'certificate', service: 'service', license: 'application' } as const;
export type CustomEntity = keyof typeof customEntities;

// Fields that say little about which record it is (many devices share an OS or a last-seen time).
const weakFields = new Set(['OS.Type', 'LastSeen', 'CloudProvider', 'Domain']);

/**
 * Fields an identifier column may feed: the fields correlation matches records by (devices and users), and for the
 * entities that hang on a device, the device identifiers and the entity's own key fields.
 */
export function identifierFieldsOf(entity: EntityKind): string[] {
  const fields = fieldsOfEntity(entity);
  const correlated = fields.filter((field) => identifyingFields.includes(field) && !weakFields.has(field));
  if (entity === 'device' || entity === 'user') return correlated;
  const ownKeys: Record<string, string[]> = {
    software: ['SoftwareName'], vulnerability: ['CveId', 'VendorVulnerabilityId'], certificate: ['FingerprintSha256', 'FingerprintSha1', 'SerialNumber'],
    service: ['PortNumber', 'ServiceName'], license: ['LicenseName', 'Sku'],
  };
  return [...new Set([...correlated, ...(ownKeys[entity] ?? []), ...fields.filter((field) => ['DeviceId', 'AgentId', 'SerialNumber'].includes(field))])];
}

/** Every custom entity with its mappable fields and identifier fields, as the mapping editor lists them. */
export function entityFieldCatalogue(): Record<CustomEntity, { fields: string[]; identifiers: string[] }> {
  return Object.fromEntries(
    (Object.keys(customEntities) as CustomEntity[]).map((entity) => [entity, { fields: fieldsOfEntity(entity), identifiers: identifierFieldsOf(entity) }]),
  ) as Record<CustomEntity, { fields: string[]; identifiers: string[] }>;
}
