import { useId, type ReactNode } from 'react';
import './Field.css';

/** Ids a control needs to be tied to its label, message and error (for aria-labelledby / aria-describedby). */
export type FieldIds = { controlId: string; describedBy: string | undefined; invalid: boolean };

export type FieldProps = {
  label?: ReactNode;
  /** Help text shown under the control while there is no error. */
  message?: ReactNode;
  /** Error text shown under the control (spec §5: messages sit under the field); a list shows one line each. */
  error?: ReactNode | readonly string[];
  required?: boolean;
  id?: string;
  className?: string;
  children: (ids: FieldIds) => ReactNode;
};

/** The props a text-valued control (TextInput, Textarea, Select) adds to its element's own: its Field's texts and its value. */
export type TextControlProps = Pick<FieldProps, 'label' | 'message' | 'error'> & {
  value: string;
  onValueChange: (value: string) => void;
};

/** The attributes that tie a control element to its Field: its id, and the error state and texts screen readers hear. */
export function controlAttributes({ controlId, describedBy, invalid }: FieldIds, required: boolean | undefined) {
  return { id: controlId, required, 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy };
}

function errorLines(error: FieldProps['error']): ReactNode[] {
  if (error === undefined || error === null || error === false || error === '') return [];
  if (Array.isArray(error)) return error.filter((line) => line !== '');
  return [error as ReactNode];
}

/**
 * A labelled form field: label above, control, then the error (or the help message) under it. Screen readers hear the
 * message and error through aria-describedby and the error state through aria-invalid.
 */
export function Field({ label, message, error, required = false, id, className, children }: FieldProps) {
  const generated = useId();
  const controlId = id ?? `field-${generated}`;
  const errors = errorLines(error);
  const invalid = errors.length > 0;
  const messageId = message && !invalid ? `${controlId}-message` : undefined;
  const errorId = invalid ? `${controlId}-error` : undefined;
  const describedBy = [messageId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`ui-field${invalid ? ' ui-field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      {label ? (
        <label className="ui-field__label" htmlFor={controlId}>
          {label}
          {required ? <span className="ui-field__required" aria-hidden="true"> *</span> : null}
        </label>
      ) : null}
      {children({ controlId, describedBy, invalid })}
      {messageId ? <p id={messageId} className="ui-field__message">{message}</p> : null}
      {errorId ? (
        <div id={errorId} className="ui-field__error" role="alert">
          {errors.map((line, index) => <p key={index}>{line}</p>)}
        </div>
      ) : null}
    </div>
  );
}
