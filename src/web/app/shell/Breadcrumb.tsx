import { t } from '../i18n/messages';
import { Link } from '@tanstack/react-router';
import { shownTrail, useBreadcrumb, usePageTitleShown } from './breadcrumb';

/** The page's trail in the top bar, ending with the page's title; empty when the page cleared it and has no title. */
export function Breadcrumb({ settings = false }: { settings?: boolean }) {
  const trail = shownTrail(useBreadcrumb(), usePageTitleShown(), settings ? { label: t('shell.settings'), to: '/settings' } : null);
  if (!trail.length) return <span className="breadcrumb" />;
  return (
    <nav className="breadcrumb" aria-label={t('shell.breadcrumb')}>
      <ol>
        {trail.map((crumb, index) => (
          <li key={`${crumb.label}-${index}`}>{crumb.to && index < trail.length - 1 ? <Link to={crumb.to}>{crumb.label}</Link> : <span>{crumb.label}</span>}</li>
        ))}
      </ol>
    </nav>
  );
}
