import { t } from '../../../app/i18n/messages';
import { Button, Checkbox, Select, Table, TextInput, type TableColumn } from '../../../ui';
import { customFieldTypes, type CustomFieldFormData } from './customAdaptersApi';

export type MappingEditorProps = {
  fields: CustomFieldFormData[];
  /** The entity's fields a column can feed, and those of them that may identify a record. */
  entityFields: string[];
  identifierFields: string[];
  onChange: (fields: CustomFieldFormData[]) => void;
  /** Column names come from a sample and stay as the file writes them; without one they are typed in. */
  columnsFixed?: boolean;
};

const rawOnly = '';

/**
 * The mapping table of a custom adapter: per column its type, the entity field it feeds (or none: the value stays in
 * the raw record) and whether it identifies the record. Only a column mapped to an identifying field can identify.
 */
export function MappingEditor({ fields, entityFields, identifierFields, onChange, columnsFixed = false }: MappingEditorProps) {
  const change = (index: number, patch: Partial<CustomFieldFormData>) => {
    onChange(fields.map((field, position) => {
      if (position !== index) return field;
      const next = { ...field, ...patch };
      // A column that no longer feeds an identifying field cannot stay an identifier.
      return next.identifier && (!next.field || !identifierFields.includes(next.field)) ? { ...next, identifier: false } : next;
    }));
  };
  const typeOptions = customFieldTypes.map((type) => ({ value: type, label: t(`customAdapters.type.${type}`) }));
  const fieldOptions = entityFields.map((field) => ({ value: field, label: field }));
  const nameOf = (field: CustomFieldFormData, index: number) => field.column || t('customAdapters.mapping.unnamed', { number: index + 1 });
  const columns: TableColumn<CustomFieldFormData>[] = [
    {
      id: 'column', header: t('customAdapters.mapping.column'),
      cell: (field, index) => (columnsFixed ? field.column : (
        <TextInput label={t('customAdapters.mapping.columnOf', { number: index + 1 })} value={field.column} onValueChange={(column) => change(index, { column })} />
      )),
    },
    {
      id: 'type', header: t('customAdapters.mapping.type'), width: '140px',
      cell: (field, index) => (
        <Select label={t('customAdapters.mapping.typeOf', { column: nameOf(field, index) })} options={typeOptions} value={field.type} onValueChange={(type) => change(index, { type: type as CustomFieldFormData['type'] })} />
      ),
    },
    {
      id: 'field', header: t('customAdapters.mapping.field'),
      cell: (field, index) => (
        <Select
          label={t('customAdapters.mapping.fieldOf', { column: nameOf(field, index) })} options={fieldOptions} placeholder={t('customAdapters.mapping.rawOnly')}
          value={field.field ?? rawOnly} onValueChange={(value) => change(index, { field: value === rawOnly ? null : value })}
        />
      ),
    },
    {
      id: 'identifier', header: t('customAdapters.mapping.identifier'), width: '120px',
      cell: (field, index) => (
        <Checkbox
          label={t('customAdapters.mapping.identifierOf', { column: nameOf(field, index) })} checked={field.identifier}
          disabled={!field.field || !identifierFields.includes(field.field)} onCheckedChange={(identifier) => change(index, { identifier })}
        />
      ),
    },
    ...(columnsFixed ? [] : [{
      id: 'remove', header: <span className="ui-visually-hidden">{t('customAdapters.mapping.actions')}</span>, width: '120px',
      cell: (field: CustomFieldFormData, index: number) => (
        <Button variant="ghost" size="small" onClick={() => onChange(fields.filter((_, position) => position !== index))}>{t('customAdapters.mapping.remove', { column: nameOf(field, index) })}</Button>
      ),
    }]),
  ];
  return (
    <div className="custom-adapter-mapping">
      <Table columns={columns} rows={fields} rowKey={(_, index) => index} caption={t('customAdapters.mapping.caption')} empty={<p>{t('customAdapters.mapping.empty')}</p>} />
      {!columnsFixed && (
        <Button variant="secondary" size="small" onClick={() => onChange([...fields, { column: '', type: 'string', field: null, identifier: false }])}>{t('customAdapters.mapping.add')}</Button>
      )}
      <p className="custom-adapter-mapping__hint">{t('customAdapters.mapping.identifierHint', { fields: identifierFields.join(', ') })}</p>
    </div>
  );
}
