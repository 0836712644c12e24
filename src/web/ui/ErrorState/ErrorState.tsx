import { t } from '../../app/i18n/messages';
import type { ReactNode } from 'react';
import { Button } from '../Button/Button';
import './ErrorState.css';

export type ErrorStateProps = {
  /** Spec §8's default title of an error. */
  title?: ReactNode;
  message?: ReactNode;
  /** Shows a "Try again" button calling this. */
  onRetry?: () => void;
  retrying?: boolean;
  className?: string;
};

/** Shown in place of content that failed to load; announced at once to screen readers (role alert). */
export function ErrorState({ title = t('ui.anErrorOccurred'), message = t('ui.unknownError'), onRetry, retrying = false, className }: ErrorStateProps) {
  return (
    <div className={`ui-error-state${className ? ` ${className}` : ''}`} role="alert">
      <p className="ui-error-state__title">{title}</p>
      {message ? <p className="ui-error-state__message">{message}</p> : null}
      {onRetry ? (
        <Button variant="secondary" onClick={onRetry} loading={retrying}>
          {t('ui.tryAgain')}
        </Button>
      ) : null}
    </div>
  );
}
