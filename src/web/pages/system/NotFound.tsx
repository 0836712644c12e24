import { t } from '../../app/i18n/messages';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { product } from '../../../core/product';
import { clearBreadcrumb } from '../../app/shell/breadcrumb';
import { ShellButton } from '../../app/shell/ShellButton';

export const notFoundTitle = `404 - ${product.name}`; // the spec's tab title, the same in every locale

/** The Not Found screen (spec §2): fatal 404s, unmatched paths and routes whose page is not built yet. */
export function NotFound() {
  const navigate = useNavigate();
  useEffect(() => {
    document.title = notFoundTitle;
    clearBreadcrumb();
  }, []);
  return (
    <section className="not-found" aria-labelledby="not-found-heading">
      <img className="not-found__image not-found__image--light" src="./images/not-found-light.svg" alt="" width={300} />
      <img className="not-found__image not-found__image--dark" src="./images/not-found-dark.svg" alt="" width={300} />
      <h1 id="not-found-heading">{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <ShellButton onClick={() => void navigate({ to: '/dashboard' } as never)}>{t('common.goHome')}</ShellButton>
    </section>
  );
}
