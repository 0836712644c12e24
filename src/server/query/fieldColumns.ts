// Where a field of a snapshot asset lives. Entity fields are in `fields`, which every list, filter and chart reads
// for each asset, so it stays small; the vendors' raw fields (`Specifics.<adapter>.<name>`) are in `specifics`,
// read only when a query, a column or an export names one.
export const specificsPrefix = 'Specifics.';

export function isSpecificField(field: string): boolean {
  return field.startsWith(specificsPrefix);
}

/** The column holding a field: `fields` or `specifics`. */
export function fieldColumn(field: string): 'fields' | 'specifics' {
  return isSpecificField(field) ? 'specifics' : 'fields';
}

/** SQL for the document answers show: the entity fields, with the raw fields joined in only when wanted (or all are). */
export function documentSql(wanted?: string[]): string {
  return wanted && !wanted.some(isSpecificField) ? 'fields' : 'fields || specifics';
}
