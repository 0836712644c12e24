import { t } from '../../app/i18n/messages';
import { Table, type TableColumn } from '../../ui';
import { fieldLabel, valueText } from './fieldValues';
import type { FieldMap } from './inventoryApi';

/** One value normalization changed or derived on a source record: the source's value, what it became, and the rule. */
export type NormalizedValue = { field: string; raw: string; value: string; rule: string; reason?: string };

/** The source-record field that holds them (src/core/normalization's `provenanceField`). */
export const normalizationField = 'Normalization';

const isNormalizedValue = (entry: unknown): entry is NormalizedValue =>
  typeof entry === 'object' && entry !== null && typeof (entry as NormalizedValue).field === 'string' && typeof (entry as NormalizedValue).rule === 'string';

/** A normalized value as its field shows it everywhere else: `"false"` of a boolean reads "No", a day as a date. */
function typedValueText(value: string, entry: FieldMap[string] | undefined): string {
  const type = entry?.value_type;
  const typed = type === 'boolean' && (value === 'true' || value === 'false') ? value === 'true' : (type === 'long' || type === 'double') && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
  return valueText(typed, type, entry?.value_titles);
}

/** A source's normalized values, raw → normalized with the rule (and, for a category, why), as "Why merged" explains merges. */
export function NormalizedValues({ entries, fieldMap }: { entries: unknown; fieldMap: FieldMap }) {
  const rows = Array.isArray(entries) ? entries.filter(isNormalizedValue) : [];
  if (!rows.length) return null;
  const columns: TableColumn<NormalizedValue>[] = [
    { id: 'field', header: t('inventories.field'), cell: (row) => fieldLabel(row.field, fieldMap[row.field]) },
    { id: 'raw', header: t('inventories.sourceValue'), cell: (row) => row.raw },
    { id: 'value', header: t('inventories.normalizedValue'), cell: (row) => typedValueText(row.value, fieldMap[row.field]) },
    { id: 'rule', header: t('inventories.normalizationRule'), cell: (row) => (row.reason ? `${row.rule} (${row.reason})` : row.rule) },
  ];
  return (
    <section className="inventory-normalized" aria-label={t('inventories.normalizedValues')}>
      <h3>{t('inventories.normalizedValues')}</h3>
      <Table caption={t('inventories.normalizedValues')} columns={columns} rows={rows} rowKey={(row, index) => `${row.field}-${index}`} />
    </section>
  );
}
