import { t } from '../../app/i18n/messages';
import { useMemo, useState } from 'react';
import { Button, Checkbox, Dialog, TextInput } from '../../ui';
import { fuzzySearch } from '../adapters/adapterSearch';

type ColumnPickerProps = {
  open: boolean;
  onClose: () => void;
  /** Every field of the field map, with its label and the adapter it comes from. */
  fields: { value: string; label: string; adapter: string }[];
  columns: string[];
  onColumnsChange: (columns: string[]) => void;
  defaultColumns: string[];
};

/** Chooses the list's columns from the field map: Cartograph's own fields first, then each adapter's Specifics. */
export function ColumnPicker({ open, onClose, fields, columns, onColumnsChange, defaultColumns }: ColumnPickerProps) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState(columns);
  const found = useMemo(() => fuzzySearch(fields.map((field) => ({ ...field, name: field.label, slug: field.value })), search).slice(0, 300), [fields, search]);
  const toggle = (field: string, on: boolean) => setChosen(on ? [...chosen, field] : chosen.filter((column) => column !== field));
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('inventories.columns')}
      description={t('inventories.lengthChosenColumnsKeep', { length: chosen.length })}
      size="large"
      footer={
        <>
          <Button variant="ghost" onClick={() => setChosen(defaultColumns)}>{t('inventories.resetToDefault')}</Button>
          <Button variant="secondary" onClick={onClose}>{t('inventories.cancel')}</Button>
          <Button disabled={!chosen.length} onClick={() => { onColumnsChange(chosen); onClose(); }}>{t('inventories.apply')}</Button>
        </>
      }
    >
      <TextInput label={t('inventories.searchFields')} type="search" value={search} onValueChange={setSearch} />
      <ul className="column-picker">
        {found.map((field) => (
          <li key={field.value}>
            <Checkbox label={field.value.startsWith('Specifics.') ? `${field.label} (${field.adapter})` : field.label} checked={chosen.includes(field.value)} onCheckedChange={(on) => toggle(field.value, on)} />
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
