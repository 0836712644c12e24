import type { TextareaHTMLAttributes } from 'react';
import { controlAttributes, Field, type TextControlProps } from '../Field/Field';
import './Textarea.css';

export type TextareaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'> & TextControlProps & {
  /** Monospaced text, for certificates, queries and code. */
  monospace?: boolean;
};

/** A labelled multi-line text field with its message or error under it. */
export function Textarea({ label, message, error, value, onValueChange, required, id, className, monospace = false, rows = 4, ...rest }: TextareaProps) {
  return (
    <Field label={label} message={message} error={error} required={required} id={id} className={className}>
      {(ids) => (
        <textarea
          {...rest}
          {...controlAttributes(ids, required)}
          rows={rows}
          className={`ui-control ui-textarea${monospace ? ' ui-textarea--mono' : ''}`}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
        />
      )}
    </Field>
  );
}
