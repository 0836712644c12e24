import { t } from '../../app/i18n/messages';
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { focusableIn } from './focusable';
import './Dialog.css';

export type DialogSize = 'small' | 'medium' | 'large';
export type DialogProps = {
  open: boolean;
  /** Called on Escape, the close button or a click on the backdrop (unless `dismissible` is false). */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** The dialog's buttons, bottom right. */
  footer?: ReactNode;
  size?: DialogSize;
  /** False for a dialog that must be answered through its own buttons (a running operation). */
  dismissible?: boolean;
  /** The element to focus on open; the first focusable element otherwise. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Announced as an alert dialog (a confirmation of something destructive). */
  alert?: boolean;
};

/**
 * A modal dialog in a portal at z-index 1100 (spec §9): aria-modal, labelled by its title, focus moved in on open, kept
 * inside while open (Tab and Shift+Tab wrap), and given back to the element that opened it on close.
 */
export function Dialog({ open, onClose, title, description, children, footer, size = 'medium', dismissible = true, initialFocus, alert = false }: DialogProps) {
  const ids = useId();
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement as HTMLElement | null;
    const target = initialFocus?.current ?? (panel.current ? focusableIn(panel.current)[0] : undefined) ?? panel.current;
    target?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      if (opener && document.contains(opener)) opener.focus();
    };
    // initialFocus is read once per opening on purpose, so it is not a dependency.
  }, [open]);

  if (!open) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      if (dismissible) close.current();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const focusable = focusableIn(panel.current);
    if (focusable.length === 0) {
      event.preventDefault();
      panel.current.focus();
      return;
    }
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === panel.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const titleId = `${ids}-title`;
  const descriptionId = description ? `${ids}-description` : undefined;
  return createPortal(
    <div className="ui-dialog__backdrop" onMouseDown={(event) => event.target === event.currentTarget && dismissible && close.current()}>
      <div
        ref={panel}
        role={alert ? 'alertdialog' : 'dialog'}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        tabIndex={-1}
        className={`ui-dialog ui-dialog--${size}`}
        onKeyDown={onKeyDown}
      >
        <header className="ui-dialog__header">
          <h2 id={titleId} className="ui-dialog__title">{title}</h2>
          {dismissible ? (
            <button type="button" className="ui-dialog__close" aria-label={t('ui.close')} onClick={() => close.current()}>
              ×
            </button>
          ) : null}
        </header>
        {description ? <p id={descriptionId} className="ui-dialog__description">{description}</p> : null}
        {children ? <div className="ui-dialog__body">{children}</div> : null}
        {footer ? <footer className="ui-dialog__footer">{footer}</footer> : null}
      </div>
    </div>,
    document.body,
  );
}
