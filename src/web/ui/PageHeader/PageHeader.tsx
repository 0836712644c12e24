import type { ReactNode } from 'react';
import './PageHeader.css';

export type PageHeaderProps = {
  title: ReactNode;
  description?: ReactNode;
  /** Page-level buttons (create, export), right of the title. */
  actions?: ReactNode;
  /** Badges or counts next to the title. */
  meta?: ReactNode;
  className?: string;
};

/** The page's one h1, its summary and its main actions. */
export function PageHeader({ title, description, actions, meta, className }: PageHeaderProps) {
  return (
    <header className={`ui-page-header${className ? ` ${className}` : ''}`}>
      <div className="ui-page-header__text">
        <div className="ui-page-header__title-row">
          <h1 className="ui-page-header__title">{title}</h1>
          {meta ? <div className="ui-page-header__meta">{meta}</div> : null}
        </div>
        {description ? <p className="ui-page-header__description">{description}</p> : null}
      </div>
      {actions ? <div className="ui-page-header__actions">{actions}</div> : null}
    </header>
  );
}
