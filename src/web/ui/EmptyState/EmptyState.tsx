import { t } from '../../app/i18n/messages';
import type { ReactNode } from 'react';
import './EmptyState.css';

export type EmptyStateProps = {
  title?: ReactNode;
  description?: ReactNode;
  /** What the user can do about it (create the first item, clear the search). */
  action?: ReactNode;
  icon?: ReactNode;
  className?: string;
};

/** Shown where a list or panel has nothing to show. */
export function EmptyState({ title = t('ui.noDataFound'), description, action, icon, className }: EmptyStateProps) {
  return (
    <div className={`ui-empty${className ? ` ${className}` : ''}`}>
      {icon ? <div className="ui-empty__icon" aria-hidden="true">{icon}</div> : null}
      <p className="ui-empty__title">{title}</p>
      {description ? <p className="ui-empty__description">{description}</p> : null}
      {action ? <div className="ui-empty__action">{action}</div> : null}
    </div>
  );
}
