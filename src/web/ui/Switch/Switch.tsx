import { useId, type ButtonHTMLAttributes, type ReactNode } from 'react';
import './Switch.css';

export type SwitchProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onChange' | 'type' | 'role'> & {
  label: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  message?: ReactNode;
  /** The label is read by screen readers only, for a switch whose row already says what it is (a table row's name). */
  hideLabel?: boolean;
};

/** An on/off switch (role switch): Space or Enter flips it, screen readers hear "on" or "off" through aria-checked. */
export function Switch({ label, checked, onCheckedChange, message, hideLabel = false, disabled, id, className, ...rest }: SwitchProps) {
  const generated = useId();
  const controlId = id ?? `switch-${generated}`;
  const messageId = message ? `${controlId}-message` : undefined;
  return (
    <div className={`ui-switch${className ? ` ${className}` : ''}`}>
      <div className="ui-switch__row">
        <button
          {...rest}
          id={controlId}
          type="button"
          role="switch"
          aria-checked={checked}
          aria-labelledby={`${controlId}-label`}
          aria-describedby={messageId}
          disabled={disabled}
          className="ui-switch__track"
          onClick={() => onCheckedChange(!checked)}
        >
          <span className="ui-switch__thumb" aria-hidden="true" />
        </button>
        <label id={`${controlId}-label`} htmlFor={controlId} className={hideLabel ? 'ui-visually-hidden' : 'ui-switch__label'}>
          {label}
        </label>
      </div>
      {messageId ? <p id={messageId} className="ui-switch__message">{message}</p> : null}
    </div>
  );
}
