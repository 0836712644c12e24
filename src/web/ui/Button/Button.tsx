import type { ButtonHTMLAttributes, MouseEvent, ReactNode } from 'react';
import { Spinner } from '../Spinner/Spinner';
import './Button.css';

export type ButtonVariant = 'success' | 'secondary' | 'danger' | 'warning' | 'ghost' | 'link';
export type ButtonSize = 'small' | 'medium';
export type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled'> & {
  /** Spec §9: buttons are of type success unless told otherwise. */
  variant?: ButtonVariant;
  size?: ButtonSize;
  loading?: boolean;
  disabled?: boolean;
  icon?: ReactNode;
};

/**
 * The console's button. While loading or disabled it is inert (spec §9): clicks and submits are swallowed and it says
 * so with aria-disabled / aria-busy, but it stays focusable so keyboard and screen-reader users can still find it and
 * hear why it does nothing.
 */
export function Button({ variant = 'success', size = 'medium', loading = false, disabled = false, icon, type = 'button', className, children, onClick, ...rest }: ButtonProps) {
  const inert = disabled || loading;
  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (inert) {
      // preventDefault also stops a submit button from submitting its form.
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    onClick?.(event);
  };
  const classes = ['ui-button', `ui-button--${variant}`, `ui-button--${size}`, inert ? 'ui-button--inert' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button {...rest} type={type} className={classes} aria-disabled={inert || undefined} aria-busy={loading || undefined} onClick={handleClick}>
      {loading ? <Spinner size="small" label={null} /> : icon ? <span className="ui-button__icon" aria-hidden="true">{icon}</span> : null}
      {children}
    </button>
  );
}
