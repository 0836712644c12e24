import { t } from '../../app/i18n/messages';
import { translateSchema, type SchemaDocument } from '../../../core/schemaMessages.js';

const localized = new WeakSet<object>();

/**
 * A schema as the console shows it: every title, description, section name and option label from the message files
 * (key `schema.<id>#<pointer>.<what>`, see src/core/schemaMessages.ts), the schema's own English only for a key they
 * lack, which tests/unit/i18n forbids for the shipped schemas. A schema without an `$id` has no keys and is shown as
 * written; a copy already localized is answered as it is, so every renderer may call this on what it is given.
 */
export function localizedSchema<Schema extends object>(schema: Schema): Schema {
  if (localized.has(schema) || typeof (schema as { $id?: unknown }).$id !== 'string') return schema;
  const copy = translateSchema(schema as unknown as SchemaDocument, (key, english) => t(key, {}, english));
  localized.add(copy);
  return copy as unknown as Schema;
}
