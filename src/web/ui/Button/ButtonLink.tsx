import type { AnchorHTMLAttributes } from 'react';
import type { ButtonSize, ButtonVariant } from './Button';
import './Button.css';

export type ButtonLinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; variant?: ButtonVariant; size?: ButtonSize };

/**
 * A link that looks like a button, for actions that open another page ("Create user"): it stays a link, so it can be
 * opened in a new tab and screen readers announce it as one. Console paths are hash links (`#/settings/user/create`).
 */
export function ButtonLink({ variant = 'success', size = 'medium', className, children, ...rest }: ButtonLinkProps) {
  return (
    <a {...rest} className={`ui-button ui-button--${variant} ui-button--${size} ui-button-link${className ? ` ${className}` : ''}`}>
      {children}
    </a>
  );
}
