import type { BaseInputTemplateProps, FieldTemplateProps, ObjectFieldTemplateProps, TemplatesType } from '@rjsf/utils';
import type { ReactNode } from 'react';
import { TextInput, type TextInputProps } from '../../ui';
import { buttonTemplates } from './buttonTemplates';
import type { SchemaFormContext } from './formContext';

const inputTypes = new Set(['text', 'password', 'email', 'search', 'number', 'url', 'tel']);

/** Text, number, email, URL and password inputs: the design system's TextInput with the field's error under it. */
function BaseInputTemplate({ id, type, value, required, disabled, readonly, autofocus, placeholder, label, hideLabel, schema, rawErrors, options, onChange, onBlur, onFocus }: BaseInputTemplateProps) {
  const inputType = (inputTypes.has(type ?? '') ? type : 'text') as TextInputProps['type'];
  const emptyValue = options.emptyValue;
  // A number field gets a number, whatever input shows it: "5" typed into an integer field is 5, not a string the
  // schema then refuses as "must be an integer". Text that is no number stays as typed, for the schema to name.
  const numeric = inputType === 'number' || [schema.type].flat().some((kind) => kind === 'integer' || kind === 'number');
  const parse = (text: string) => {
    if (text === '') return emptyValue;
    if (numeric) return text.trim() === '' || Number.isNaN(Number(text)) ? text : Number(text);
    return text;
  };
  return (
    <TextInput
      id={id}
      type={inputType}
      label={hideLabel ? undefined : label}
      message={schema.description}
      error={rawErrors?.length ? rawErrors : undefined}
      value={value === undefined || value === null ? '' : String(value)}
      required={required}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      placeholder={placeholder}
      autoComplete={inputType === 'password' ? 'new-password' : undefined}
      onValueChange={(text) => onChange(parse(text))}
      onBlur={(event) => onBlur(id, parse(event.target.value))}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  );
}

/** The widgets show their own label and error (design-system fields); the template only lays fields out. */
function FieldTemplate({ children, hidden, classNames }: FieldTemplateProps) {
  if (hidden) return <div hidden>{children}</div>;
  return <div className={`schema-form__field${classNames ? ` ${classNames}` : ''}`}>{children}</div>;
}

/** The root object is split into sections by `x-group`; ungrouped fields come first, without a heading. */
function ObjectFieldTemplate({ properties, fieldPathId, registry, title }: ObjectFieldTemplateProps) {
  const context = registry.formContext as SchemaFormContext | undefined;
  const isRoot = fieldPathId.path.length === 0;
  if (!isRoot) {
    return (
      <fieldset className="schema-form__object">
        {title ? <legend>{title}</legend> : null}
        {properties.map((property) => property.content)}
      </fieldset>
    );
  }
  const sections = new Map<string, ReactNode[]>();
  for (const property of properties) {
    const group = context?.groups[property.name] ?? '';
    sections.set(group, [...(sections.get(group) ?? []), property.content]);
  }
  return (
    <div className="schema-form__fields">
      {[...sections].map(([group, contents]) =>
        group ? (
          <fieldset key={group} className="schema-form__section">
            <legend className="schema-form__section-title">{group}</legend>
            {contents}
          </fieldset>
        ) : (
          <div key="" className="schema-form__section">{contents}</div>
        ),
      )}
    </div>
  );
}

// Errors sit under each field (spec §5); the list at the top of the form is not used.
const Nothing = () => null;

export const templates: Partial<TemplatesType> = {
  BaseInputTemplate,
  FieldTemplate,
  ObjectFieldTemplate,
  ErrorListTemplate: Nothing,
  FieldErrorTemplate: Nothing,
  DescriptionFieldTemplate: Nothing,
  ButtonTemplates: buttonTemplates as TemplatesType['ButtonTemplates'],
};
