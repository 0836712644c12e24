import type { EntityKind } from '../engine.js';
import type { CustomFieldType } from './fieldTypes.js';

export type CustomFieldDefinition = { column: string; type: CustomFieldType; field?: string | null; identifier?: boolean };

/** What a custom adapter reads, as stored in `custom_adapters`. */
export type CustomAdapterDefinition = {
  id: number;
  companyId: number;
  slug: string;
  name: string;
  description: string;
  categories: string[];
  entity: EntityKind;
  fileType: 'csv' | 'xlsx';
  delimiter: string;
  fields: CustomFieldDefinition[];
};
