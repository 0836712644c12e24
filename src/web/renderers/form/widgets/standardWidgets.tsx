import type { RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
import { Checkbox, Field, Select, Textarea } from '../../../ui';
import { reportWidgetValue } from './reportWidgetValue';

const errorOf = (rawErrors: string[] | undefined) => (rawErrors?.length ? rawErrors : undefined);

function TextareaWidget({ id, value, label, required, disabled, readonly, schema, rawErrors, options, onChange, onBlur, uiSchema }: WidgetProps) {
  const monospace = uiSchema?.['ui:widget'] === 'code';
  return (
    <Textarea
      id={id}
      label={label}
      message={schema.description}
      error={errorOf(rawErrors)}
      value={typeof value === 'string' ? value : ''}
      required={required}
      disabled={disabled || readonly}
      monospace={monospace}
      rows={monospace ? 10 : 4}
      onValueChange={(text) => onChange(text === '' ? options.emptyValue : text)}
      onBlur={(event) => onBlur(id, event.target.value)}
    />
  );
}

function CheckboxWidget({ id, value, label, disabled, readonly, schema, rawErrors, onChange, onBlur }: WidgetProps) {
  return (
    <Checkbox
      id={id}
      label={label}
      message={schema.description}
      error={rawErrors?.[0]}
      checked={value === true}
      disabled={disabled || readonly}
      onCheckedChange={(checked) => reportWidgetValue({ id, onChange, onBlur }, checked)}
    />
  );
}

function SelectWidget({ id, value, label, required, disabled, readonly, schema, rawErrors, options, onChange, onBlur, placeholder }: WidgetProps) {
  const choices = (options.enumOptions ?? []).map((option) => ({ value: String(option.value), label: option.label }));
  const valueOf = (text: string) => options.enumOptions?.find((option) => String(option.value) === text)?.value ?? (text === '' ? options.emptyValue : text);
  return (
    <Select
      id={id}
      label={label}
      message={schema.description}
      error={errorOf(rawErrors)}
      options={choices}
      value={value === undefined || value === null ? '' : String(value)}
      placeholder={placeholder || (required ? undefined : '—')}
      required={required}
      disabled={disabled || readonly}
      onValueChange={(text) => reportWidgetValue({ id, onChange, onBlur }, valueOf(text))}
    />
  );
}

function CheckboxesWidget({ id, value, label, required, disabled, readonly, schema, rawErrors, options, onChange, onBlur }: WidgetProps) {
  const selected: unknown[] = Array.isArray(value) ? value : [];
  const toggle = (choice: unknown, checked: boolean) => {
    reportWidgetValue({ id, onChange, onBlur }, checked ? [...selected, choice] : selected.filter((item) => item !== choice));
  };
  return (
    <Field label={label} message={schema.description} error={errorOf(rawErrors)} required={required} id={id}>
      {({ describedBy }) => (
        <div role="group" aria-labelledby={undefined} aria-describedby={describedBy} className="schema-form__choices">
          {(options.enumOptions ?? []).map((option, index) => (
            <Checkbox
              key={String(option.value)}
              id={index === 0 ? id : `${id}-${index}`}
              label={option.label}
              checked={selected.includes(option.value)}
              disabled={disabled || readonly}
              onCheckedChange={(checked) => toggle(option.value, checked)}
            />
          ))}
        </div>
      )}
    </Field>
  );
}

export const standardWidgets: RegistryWidgetsType = {
  TextareaWidget,
  textarea: TextareaWidget,
  code: TextareaWidget,
  CheckboxWidget,
  checkbox: CheckboxWidget,
  SelectWidget,
  select: SelectWidget,
  CheckboxesWidget,
  checkboxes: CheckboxesWidget,
};
