import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { PageProps } from '../../app/pageModules';
import { t } from '../../app/i18n/messages';
import { routeParams } from '../../renderers/form/routeParams';
import { ErrorState, PageHeader, Spinner } from '../../ui';
import { CustomAdapterEditor } from './customAdapter/CustomAdapterEditor';
import { customAdapterListPath, readCustomAdapter } from './customAdapter/customAdaptersApi';

/** `/settings/custom-adapter/create` and `/{id}/edit`: a custom adapter's definition and field mapping. */
export function CustomAdapterForm(props: PageProps) {
  const id = routeParams(props.route.path).id ?? null;
  const navigate = useNavigate();
  const adapter = useQuery({ queryKey: ['customs', 'adapters', id], queryFn: () => readCustomAdapter(id!), enabled: id !== null });
  const title = id ? t('customAdapters.form.editTitle') : t('customAdapters.form.createTitle');
  let body;
  if (id && adapter.isError) body = <ErrorState title={t('customAdapters.error.page')} message={adapter.error.message} />;
  else if (id && !adapter.data) body = <Spinner label={t('customAdapters.loading')} />;
  else body = <CustomAdapterEditor key={id ?? 'new'} adapter={adapter.data ?? null} onSaved={() => void navigate({ to: customAdapterListPath })} />;
  return (
    <section className="custom-adapter-form-page">
      <PageHeader title={title} description={t('customAdapters.form.description')} />
      {body}
    </section>
  );
}
