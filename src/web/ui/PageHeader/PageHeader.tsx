import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { usePageTitle } from '../../app/shell/breadcrumb';
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
  // The top bar's breadcrumb ends with this title, whatever trail the page set: its text, also when the title is
  // more than text (a connection's adapter icon beside its name).
  const heading = useRef<HTMLHeadingElement>(null);
  const [titleText, setTitleText] = useState<string | null>(typeof title === 'string' ? title : null);
  useLayoutEffect(() => setTitleText(heading.current?.textContent?.trim() || null));
  usePageTitle(titleText);
  return (
    <header className={`ui-page-header${className ? ` ${className}` : ''}`}>
      <div className="ui-page-header__text">
        <div className="ui-page-header__title-row">
          <h1 ref={heading} className="ui-page-header__title">{title}</h1>
          {meta ? <div className="ui-page-header__meta">{meta}</div> : null}
        </div>
        {description ? <p className="ui-page-header__description">{description}</p> : null}
      </div>
      {actions ? <div className="ui-page-header__actions">{actions}</div> : null}
    </header>
  );
}
