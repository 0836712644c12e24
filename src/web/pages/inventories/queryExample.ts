import type { FieldMap } from './inventoryApi';

/**
 * An example query of one inventory, for its query bar's placeholder: built from the inventory's own fields (its
 * default columns first, in the field map), so it always names fields the inventory has. Before: the device list's
 * hostname example on every list; after: `CveId = * AND LastSeen last now-15d/d` on the vulnerabilities.
 */
export function queryExample(fieldMap: FieldMap, preferred: readonly string[]): string {
  const keys = [...preferred.filter((key) => key in fieldMap), ...Object.keys(fieldMap).filter((key) => !preferred.includes(key))]
    .filter((key) => key !== 'Adapters' && !key.startsWith('Specifics.') && !key.includes('.'));
  const ofType = (types: readonly string[]) => keys.find((key) => types.includes(fieldMap[key]!.value_type));
  const text = ofType(['text']);
  const date = ofType(['date']);
  const number = ofType(['long', 'double']);
  const titles = text ? Object.keys(fieldMap[text]!.value_titles ?? {}) : [];
  const conditions = [
    text && (titles.length ? `${text} = "${titles[0]}"` : `${text} = *`),
    date ? `${date} last now-15d/d` : number && `${number} > 0`,
  ].filter(Boolean);
  return conditions.join(' AND ');
}
