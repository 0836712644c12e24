import type { ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'success' | 'secondary' | 'danger' | 'link';
type ShellButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; loading?: boolean };

/** The shell's button (spec §9): type success by default, inert while loading or disabled. */
export function ShellButton({ variant = 'success', loading = false, disabled, type = 'button', className, children, ...rest }: ShellButtonProps) {
  const inert = Boolean(disabled || loading);
  return (
    <button {...rest} type={type} className={`button button--${variant}${className ? ` ${className}` : ''}`} disabled={inert} aria-busy={loading || undefined}>
      {loading ? <span className="button__spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}
