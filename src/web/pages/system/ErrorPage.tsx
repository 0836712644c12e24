import { useEffect } from 'react';
import { product } from '../../../core/product';
import { clearBreadcrumb } from '../../app/shell/breadcrumb';
import { ShellButton } from '../../app/shell/ShellButton';

/** The error page of a fatal error other than 404 (spec §4): what happened and a way to try again. */
export function ErrorPage({ error }: { error: unknown }) {
  useEffect(() => {
    document.title = `Error - ${product.name}`;
    clearBreadcrumb();
  }, []);
  const message = error instanceof Error ? error.message : 'Unknown error';
  return (
    <section className="error-page" role="alert">
      <h1>Something went wrong</h1>
      <p>{message}</p>
      <ShellButton onClick={() => window.location.reload()}>Reload the page</ShellButton>
    </section>
  );
}
