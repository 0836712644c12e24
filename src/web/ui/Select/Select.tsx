import type { SelectHTMLAttributes } from 'react';
import { controlAttributes, Field, type TextControlProps } from '../Field/Field';
import './Select.css';

export type SelectOption = { value: string; label: string; disabled?: boolean };
export type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange' | 'multiple'> & TextControlProps & {
  options: readonly SelectOption[];
  /** A first, empty choice (value ''), for a field that may stay unset. */
  placeholder?: string;
};

/** A labelled native select: the browser's own keyboard and screen-reader handling, styled with the tokens. */
export function Select({ label, message, error, options, value, onValueChange, placeholder, required, id, className, ...rest }: SelectProps) {
  return (
    <Field label={label} message={message} error={error} required={required} id={id} className={className}>
      {(ids) => (
        <select
          {...rest}
          {...controlAttributes(ids, required)}
          className="ui-control ui-select"
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
        >
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
