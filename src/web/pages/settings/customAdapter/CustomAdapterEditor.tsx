import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../../app/http';
import { t } from '../../../app/i18n/messages';
import { Button, Card, Checkbox, ErrorState, Select, Spinner, Textarea, TextInput } from '../../../ui';
import {
  adapterCategories, customAdaptersKey, customEntities, readEntityFields, saveCustomAdapter, type CustomAdapterFormData, type CustomAdapterResponse, type CustomEntity, type SampleResponse,
} from './customAdaptersApi';
import { MappingEditor } from './MappingEditor';
import { SampleInput } from './SampleInput';
import { SamplePreview } from './SamplePreview';
import './customAdapters.css';

export type CustomAdapterEditorProps = {
  /** The adapter being changed; null defines a new one. */
  adapter: CustomAdapterResponse | null;
  /** A sample already read (the import-fields page reads it first). */
  sample?: SampleResponse | null;
  onSaved: (adapter: CustomAdapterResponse) => void;
};

const emptyForm = (entity: CustomEntity = 'device'): CustomAdapterFormData => ({ name: '', description: '', categories: [], entity, file_type: 'csv', delimiter: ',', fields: [] });

function fromSample(form: CustomAdapterFormData, sample: SampleResponse): CustomAdapterFormData {
  return { ...form, entity: sample.entity, file_type: sample.file_type, delimiter: sample.delimiter, fields: sample.columns };
}

/** Every message of a refused save, field by field, to show above the buttons. */
function saveErrors(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [(error as Error).message];
  const messages = Object.entries(error.fieldErrors).flatMap(([field, texts]) => texts.map((text) => `${field}: ${text}`));
  return messages.length ? messages : [error.message];
}

/**
 * The definition of a custom adapter: name, description, categories, entity, and the mapping of its columns (read
 * from a sample, or typed in), with the sample's first rows to check it against.
 */
export function CustomAdapterEditor({ adapter, sample: initialSample = null, onSaved }: CustomAdapterEditorProps) {
  const queryClient = useQueryClient();
  const entityFields = useQuery({ queryKey: ['customs', 'entity-fields'], queryFn: readEntityFields, staleTime: Infinity });
  const [sample, setSample] = useState<SampleResponse | null>(initialSample);
  const [form, setForm] = useState<CustomAdapterFormData>(() => {
    if (adapter) return { name: adapter.name, description: adapter.description, categories: adapter.categories, entity: adapter.entity, file_type: adapter.file_type, delimiter: adapter.delimiter, fields: adapter.fields };
    return initialSample ? fromSample(emptyForm(), initialSample) : emptyForm();
  });
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  if (entityFields.isError) return <ErrorState title={t('customAdapters.error.page')} message={entityFields.error.message} />;
  if (!entityFields.data) return <Spinner label={t('customAdapters.loading')} />;
  const { fields, identifiers } = entityFields.data.entities[form.entity];
  const update = (patch: Partial<CustomAdapterFormData>) => setForm((current) => ({ ...current, ...patch }));
  const changeEntity = (entity: CustomEntity) => {
    // The mapped fields belong to the entity: another entity starts the mapping over, columns and types kept.
    update({ entity, fields: form.fields.map((field) => ({ ...field, field: null, identifier: false })) });
  };
  const save = async () => {
    setSaving(true);
    setErrors([]);
    try {
      const body = { ...form, categories: form.categories.length ? form.categories : [entityFields.data.categories[form.entity]] };
      const saved = await saveCustomAdapter(adapter ? String(adapter.id) : null, body);
      // The list and the upload page's choice of adapters are cached: the saved adapter must be in them at once.
      await queryClient.invalidateQueries({ queryKey: customAdaptersKey });
      onSaved(saved);
    } catch (error) {
      setErrors(saveErrors(error));
    } finally {
      setSaving(false);
    }
  };
  const toggleCategory = (category: string, on: boolean) => update({ categories: on ? [...form.categories, category] : form.categories.filter((item) => item !== category) });
  return (
    <form className="custom-adapter-editor" onSubmit={(event) => { event.preventDefault(); void save(); }}>
      <Card title={t('customAdapters.form.basics')}>
        <TextInput label={t('customAdapters.form.name')} required value={form.name} onValueChange={(name) => update({ name })} />
        {adapter && <p>{t('customAdapters.form.slug', { slug: adapter.slug })}</p>}
        <Textarea label={t('customAdapters.form.description')} value={form.description} onValueChange={(description) => update({ description })} />
        <Select
          label={t('customAdapters.form.entity')} value={form.entity} onValueChange={(entity) => changeEntity(entity as CustomEntity)}
          options={customEntities.map((entity) => ({ value: entity, label: t(`customAdapters.entity.${entity}`) }))}
        />
        <fieldset className="custom-adapter-editor__categories">
          <legend>{t('customAdapters.form.categories')}</legend>
          {adapterCategories.map((category) => (
            <Checkbox key={category} label={t(`customAdapters.category.${category}`)} checked={form.categories.includes(category)} onCheckedChange={(on) => toggleCategory(category, on)} />
          ))}
        </fieldset>
      </Card>
      <Card title={t('customAdapters.form.fields')}>
        <SampleInput entity={form.entity} onRead={(read) => { setSample(read); setForm((current) => fromSample(current, read)); }} />
        <MappingEditor fields={form.fields} entityFields={fields} identifierFields={identifiers} onChange={(next) => update({ fields: next })} columnsFixed={Boolean(sample)} />
        {sample && <SamplePreview columns={sample.columns.map((column) => column.column)} rows={sample.preview} />}
      </Card>
      {errors.length > 0 && (
        <div role="alert" className="custom-adapter-error">
          <p>{t('customAdapters.form.refused')}</p>
          <ul>{errors.map((message) => <li key={message}>{message}</li>)}</ul>
        </div>
      )}
      <Button type="submit" loading={saving}>{adapter ? t('customAdapters.form.saveChanges') : t('customAdapters.form.create')}</Button>
    </form>
  );
}
