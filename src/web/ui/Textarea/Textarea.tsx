import type { ReactNode, TextareaHTMLAttributes } from 'react';
import { Field } from '../Field/Field';
import './Textarea.css';

export type TextareaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'> & {
  label?: ReactNode;
  message?: ReactNode;
  error?: ReactNode | readonly string[];
  value: string;
  onValueChange: (value: string) => void;
  /** Monospaced text, for certificates, queries and code. */
  monospace?: boolean;
};

/** A labelled multi-line text field with its message or error under it. */
export function Textarea({ label, message, error, value, onValueChange, required, id, className, monospace = false, rows = 4, ...rest }: TextareaProps) {
  return (
    <Field label={label} message={message} error={error} required={required} id={id} className={className}>
      {({ controlId, describedBy, invalid }) => (
        <textarea
          {...rest}
          id={controlId}
          rows={rows}
          className={`ui-control ui-textarea${monospace ? ' ui-textarea--mono' : ''}`}
          value={value}
          required={required}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(event) => onValueChange(event.target.value)}
        />
      )}
    </Field>
  );
}
