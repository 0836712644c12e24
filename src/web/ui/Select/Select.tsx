import type { ReactNode, SelectHTMLAttributes } from 'react';
import { Field } from '../Field/Field';
import './Select.css';

export type SelectOption = { value: string; label: string; disabled?: boolean };
export type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange' | 'multiple'> & {
  label?: ReactNode;
  message?: ReactNode;
  error?: ReactNode | readonly string[];
  options: readonly SelectOption[];
  value: string;
  onValueChange: (value: string) => void;
  /** A first, empty choice (value ''), for a field that may stay unset. */
  placeholder?: string;
};

/** A labelled native select: the browser's own keyboard and screen-reader handling, styled with the tokens. */
export function Select({ label, message, error, options, value, onValueChange, placeholder, required, id, className, ...rest }: SelectProps) {
  return (
    <Field label={label} message={message} error={error} required={required} id={id} className={className}>
      {({ controlId, describedBy, invalid }) => (
        <select
          {...rest}
          id={controlId}
          className="ui-control ui-select"
          value={value}
          required={required}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
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
