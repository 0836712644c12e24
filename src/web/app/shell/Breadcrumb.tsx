import { t } from '../i18n/messages';
import { Link } from '@tanstack/react-router';
import { useBreadcrumb } from './breadcrumb';

/** The page's trail in the top bar; empty when the page cleared it. */
export function Breadcrumb() {
  const trail = useBreadcrumb();
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
