import { useEffect, useId, useRef, type InputHTMLAttributes, type ReactNode } from 'react';
import './Checkbox.css';

export type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'checked' | 'onChange' | 'value'> & {
  label: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** Shown as neither on nor off (a parent of partly chosen children). */
  indeterminate?: boolean;
  message?: ReactNode;
  error?: ReactNode;
};

/** A native checkbox with its label beside it; the whole label toggles it, Space toggles it from the keyboard. */
export function Checkbox({ label, checked, onCheckedChange, indeterminate = false, message, error, id, className, ...rest }: CheckboxProps) {
  const generated = useId();
  const controlId = id ?? `checkbox-${generated}`;
  const input = useRef<HTMLInputElement>(null);
  // indeterminate exists only as a DOM property, not an attribute.
  useEffect(() => {
    if (input.current) input.current.indeterminate = indeterminate;
  }, [indeterminate]);
  const noteId = error || message ? `${controlId}-note` : undefined;
  return (
    <div className={`ui-check${error ? ' ui-check--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="ui-check__label" htmlFor={controlId}>
        <input
          {...rest}
          ref={input}
          id={controlId}
          type="checkbox"
          className="ui-check__input"
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={noteId}
          onChange={(event) => onCheckedChange(event.target.checked)}
        />
        <span>{label}</span>
      </label>
      {noteId ? <p id={noteId} className={error ? 'ui-check__error' : 'ui-check__message'} role={error ? 'alert' : undefined}>{error ?? message}</p> : null}
    </div>
  );
}
