import { t } from '../../../app/i18n/messages';
import type { FieldProps, ObjectFieldTemplateProps, RJSFSchema } from '@rjsf/utils';
import { useState } from 'react';
import { templates } from '../../../renderers/form/templates';
import { Button, TextInput } from '../../../ui';
import type { ConnectionFormContext } from './SecretWidget';

const RendererObjectTemplate = templates.ObjectFieldTemplate!;

const hasConstant = (schema: RJSFSchema) => Object.values(schema.properties ?? {}).some((property) => typeof property === 'object' && 'const' in property);

/**
 * Nested objects as the renderer lays them out, without headings that would repeat what is on screen already: an
 * auth object in its own "Authentication" section, a oneOf holder whose choice is labelled by the selector, and the
 * chosen branch (its title is the selected option).
 */
export function ConnectionObjectTemplate(props: ObjectFieldTemplateProps) {
  const { fieldPathId, schema, title, properties, registry } = props;
  if (fieldPathId.path.length === 0) return <RendererObjectTemplate {...props} />;
  const groups = (registry.formContext as ConnectionFormContext | undefined)?.groups ?? {};
  const name = String(fieldPathId.path.at(-1));
  const holder = Boolean(schema.oneOf) && !Object.keys(schema.properties ?? {}).length;
  const sameAsSection = fieldPathId.path.length === 1 && groups[name] === title;
  if (holder || sameAsSection || hasConstant(schema)) {
    return properties.length ? <div className="connection-settings-form__object">{properties.map((property) => property.content)}</div> : null;
  }
  return <RendererObjectTemplate {...props} />;
}

/**
 * A string map (`additionalProperties: {type: string}`, such as a CSV column mapping) as rows of key and value.
 * Rows with an empty key are kept on screen while typed but not sent.
 */
export function KeyValueField({ formData, onChange, fieldPathId, schema, uiSchema, disabled, readonly }: FieldProps) {
  const [rows, setRows] = useState<[string, string][]>(() => Object.entries((formData ?? {}) as Record<string, string>));
  const title = (uiSchema?.['ui:title'] as string | undefined) ?? schema.title ?? fieldPathId.$id;
  const inert = disabled || readonly;
  const report = (next: [string, string][]) => {
    setRows(next);
    onChange(Object.fromEntries(next.filter(([key]) => key.trim() !== '')), fieldPathId.path, undefined, fieldPathId.$id);
  };
  const edit = (index: number, key: string, value: string) => report(rows.map((row, at) => (at === index ? [key, value] : row)));
  return (
    <fieldset id={fieldPathId.$id} className="schema-form__object connection-key-values">
      <legend>{title}</legend>
      {schema.description ? <p className="connection-key-values__help">{schema.description}</p> : null}
      {rows.map(([key, value], index) => (
        <div key={index} className="connection-key-values__row">
          <TextInput id={`${fieldPathId.$id}-key-${index}`} label={t('adapters.source')} value={key} disabled={inert} onValueChange={(text) => edit(index, text, value)} />
          <TextInput id={`${fieldPathId.$id}-value-${index}`} label={t('adapters.cartographField')} value={value} disabled={inert} onValueChange={(text) => edit(index, key, text)} />
          <Button variant="secondary" size="small" disabled={inert} onClick={() => report(rows.filter((_row, at) => at !== index))}>{t('adapters.remove')}</Button>
        </div>
      ))}
      <Button variant="secondary" size="small" disabled={inert} onClick={() => report([...rows, ['', '']])}>{t('adapters.addAMapping')}</Button>
    </fieldset>
  );
}
