import { t } from '../../app/i18n/messages';
import type { FieldErrors } from '../../app/http';
import { Field, TextInput, Textarea } from '../../ui';
import type { TagFormData } from './deviceActionsApi';
import './deviceActions.css';

export const defaultTagColor = '#5b6b8c';
const hexColor = /^#[0-9a-fA-F]{6}$/;

/** A tag's chip: its colour as a swatch beside the name (the name carries the meaning, the colour only helps). */
export function TagChip({ name, color }: { name: string; color?: string }) {
  return (
    <span className="tag-chip">
      <span className="tag-chip__swatch" style={{ background: color && hexColor.test(color) ? color : defaultTagColor }} aria-hidden="true" />
      {name}
    </span>
  );
}

/** What the browser can tell before sending (the schema's rules); the server's messages win once it answered. */
export function tagFormProblems(form: TagFormData): Partial<Record<keyof TagFormData, string>> {
  const problems: Partial<Record<keyof TagFormData, string>> = {};
  if (!form.name.trim()) problems.name = t('inventories.tagNameRequired');
  else if (form.name.length > 100) problems.name = t('inventories.tagNameTooLong');
  if (form.description.length > 1000) problems.description = t('inventories.tagDescriptionTooLong');
  if (!hexColor.test(form.color)) problems.color = t('inventories.tagColourHex');
  return problems;
}

type TagFieldsProps = { form: TagFormData; onChange: (form: TagFormData) => void; errors: FieldErrors; showProblems: boolean };

/** Name, description and colour of a tag (schemas/entities/tag.json), each with its error under it. */
export function TagFields({ form, onChange, errors, showProblems }: TagFieldsProps) {
  const problems = showProblems ? tagFormProblems(form) : {};
  return (
    <div className="tag-fields">
      <TextInput label={t('inventories.name')} required value={form.name} maxLength={100} onValueChange={(name) => onChange({ ...form, name })} error={errors.name ?? problems.name} />
      <Textarea label={t('inventories.description')} value={form.description} maxLength={1000} rows={3} onValueChange={(description) => onChange({ ...form, description })} error={errors.description ?? problems.description} />
      <Field label={t('inventories.colour')} error={errors.color ?? problems.color}>
        {({ controlId, describedBy, invalid }) => (
          <span className="tag-fields__color">
            <input id={controlId} type="color" value={hexColor.test(form.color) ? form.color : defaultTagColor} aria-describedby={describedBy} aria-invalid={invalid || undefined} onChange={(event) => onChange({ ...form, color: event.target.value })} />
            <TextInput label={t('inventories.colourValue')} className="tag-fields__hex" value={form.color} maxLength={7} onValueChange={(color) => onChange({ ...form, color })} />
          </span>
        )}
      </Field>
    </div>
  );
}
