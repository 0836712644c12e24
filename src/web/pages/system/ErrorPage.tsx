import { t } from '../../app/i18n/messages';
import { useEffect } from 'react';
import { product } from '../../../core/product';
import { clearBreadcrumb } from '../../app/shell/breadcrumb';
import { ShellButton } from '../../app/shell/ShellButton';

/** The error page of a fatal error other than 404 (spec §4): what happened and a way to try again. */
export function ErrorPage({ error }: { error: unknown }) {
  useEffect(() => {
    document.title = `${t('errorPage.tab')} - ${product.name}`;
    clearBreadcrumb();
  }, []);
  const message = error instanceof Error ? error.message : t('error.unknown');
  return (
    <section className="error-page" role="alert">
      <h1>{t('errorPage.title')}</h1>
      <p>{message}</p>
      <ShellButton onClick={() => window.location.reload()}>{t('errorPage.reload')}</ShellButton>
    </section>
  );
}
