import { useId, type ReactNode } from 'react';
import './Card.css';

export type CardProps = {
  title?: ReactNode;
  /** Buttons or links in the card's header, right of the title. */
  actions?: ReactNode;
  footer?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** Heading level of the title, so cards fit the page's outline. */
  headingLevel?: 2 | 3 | 4;
};

/** A bordered surface grouping related content; with a title it is a labelled region for screen readers. */
export function Card({ title, actions, footer, children, className, headingLevel = 2 }: CardProps) {
  const titleId = `card-${useId()}`;
  const Heading = `h${headingLevel}` as const;
  return (
    <section className={`ui-card${className ? ` ${className}` : ''}`} aria-labelledby={title ? titleId : undefined}>
      {title || actions ? (
        <header className="ui-card__header">
          {title ? <Heading id={titleId} className="ui-card__title">{title}</Heading> : <span />}
          {actions ? <div className="ui-card__actions">{actions}</div> : null}
        </header>
      ) : null}
      <div className="ui-card__body">{children}</div>
      {footer ? <footer className="ui-card__footer">{footer}</footer> : null}
    </section>
  );
}
