import { t } from '../../app/i18n/messages';
import { EmptyState } from '../../ui';
import { fieldLabel, FieldValues } from './fieldValues';
import type { FieldMap, FieldMapEntry } from './inventoryApi';

/** Label, values and the field's type (so dates read as everywhere else) of each fact. */
export type Fact = [label: string, value: unknown, type?: FieldMapEntry['value_type'], titles?: FieldMapEntry['value_titles']];

export function Facts({ entries }: { entries: Fact[] }) {
  if (!entries.length) return <EmptyState title={t('inventories.noValues')} />;
  return (
    <dl className="inventory-facts">
      {/* A source tab may show a mapped field and the vendor's raw field of the same name ("Domain"): keyed by place. */}
      {entries.map(([label, value, type, titles], index) => (
        <div key={`${index}:${label}`}>
          <dt>{label}</dt>
          <dd><FieldValues values={value} type={type} titles={titles} /></dd>
        </div>
      ))}
    </dl>
  );
}

/** The chosen fields of an asset that have values, labelled and typed by the field map. */
export function FieldFacts({ asset, keys, fieldMap }: { asset: Record<string, unknown>; keys: readonly string[]; fieldMap: FieldMap }) {
  const present = keys.filter((key) => Array.isArray(asset[key]) && (asset[key] as unknown[]).length > 0);
  return <Facts entries={present.map((key): Fact => [fieldLabel(key, fieldMap[key]), asset[key], fieldMap[key]?.value_type, fieldMap[key]?.value_titles])} />;
}
