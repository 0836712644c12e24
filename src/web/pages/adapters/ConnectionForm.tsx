import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useEffect, useMemo } from 'react';
import type { PageProps } from '../../app/pageModules';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Badge, ErrorState, PageHeader, Spinner } from '../../ui';
import { adapterImage } from './adapterSearch';
import { ConnectionEditor } from './connectionForm/ConnectionEditor';
import { adapterQuery, connectionSchemaLoader, connectionSchemaQuery } from './connectionForm/connectionFormApi';
import { connectionFormModel, valuesOfOptions } from './connectionForm/connectionModel';
import { connectionQuery } from './connectionsApi';
import './adapters.css';

const editPath = '/adapters/connection/edit/{id}';

function UnavailableAdapter({ name, slug, description }: { name: string; slug: string; description: string }) {
  return (
    <section className="adapters-page">
      <PageHeader title={<span className="connection-adapter"><img src={adapterImage(slug)} alt="" width={28} height={28} />{name}</span>} description={description} />
      <div className="adapter-unavailable" role="note">
        <Badge tone="warning">{t('adapters.notAvailableYet')}</Badge>{' '}{t('adapters.cannotFetchYetSeeInstructions', { name })}{' '}
        <Link to="/adapters/connections/components/instructions/$tool" params={{ tool: slug }}>{t('adapters.nameInstructions', { name })}</Link>
      </div>
    </section>
  );
}

/**
 * `/adapters/connection/create/{id}` (id: the adapter's slug) and `/adapters/connection/edit/{id}` (id: the
 * connection's): the connection's name, connector and the adapter's own settings, rendered from its connection schema.
 */
export function ConnectionForm({ route }: PageProps) {
  const { id } = useParams({ strict: false }) as { id: string };
  const editing = route.path === editPath;
  const connection = useQuery({ ...connectionQuery(Number(id)), enabled: editing });
  const slug = editing ? connection.data?.adapter : id;
  const adapter = useQuery({ ...adapterQuery(slug ?? ''), enabled: Boolean(slug) });
  // A custom adapter's connections use another adapter's form (the CSV file's): the adapter says whose.
  // A catalogue adapter's schema is fetched beside the adapter; a custom adapter's waits for the adapter to name it.
  const schemaSlug = adapter.data?.connection_schema ?? (adapter.data ? adapter.data.slug : slug && connectionSchemaLoader(slug) ? slug : null);
  const schema = useQuery({ ...connectionSchemaQuery(schemaSlug ?? ''), enabled: Boolean(schemaSlug) });
  const model = useMemo(() => (schema.data ? connectionFormModel(schema.data, editing ? 'edit' : 'create') : null), [schema.data, editing]);
  const initialValues = useMemo(() => (connection.data ? valuesOfOptions(connection.data.option_connections) : {}), [connection.data]);
  const adapterName = adapter.data?.name ?? slug ?? '';
  const connectionName = connection.data?.name;

  useEffect(() => {
    setBreadcrumb([
      { label: t('adapters.adapters'), to: '/adapters' },
      { label: t('adapters.connections'), to: '/adapters/connections' },
      ...(editing ? [{ label: connectionName ?? id, to: `/adapters/connections/${id}` }, { label: t('adapters.edit') }] : [{ label: t('adapters.addAdapternameConnection', { adapterName }) }]),
    ]);
  }, [editing, id, adapterName, connectionName]);

  const failed = [connection, adapter, schema].find((query) => query.isError);
  if (failed?.error) return <ErrorState title={t('adapters.formCannotShown')} message={failed.error.message} onRetry={() => void failed.refetch()} />;
  const current = adapter.data;
  // No form for an adapter Cartograph cannot fetch from yet: its connection could never be saved (the server refuses it).
  if (!editing && current && !current.can_fetch) return <UnavailableAdapter name={current.name} slug={current.slug} description={current.description} />;
  if ((editing && connection.isPending) || !current || !model) return <Spinner label={t('adapters.loadingConnectionForm')} />;

  return (
    <section className="adapters-page">
      <PageHeader
        title={<span className="connection-adapter"><img src={adapterImage(current.custom ? 'csvfile' : current.slug)} alt="" width={28} height={28} />{editing ? t('adapters.editConnectionName', { connectionName: connectionName ?? '' }) : t('adapters.addNameConnection', { name: current.name })}</span>}
        description={current.description}
      />
      <ConnectionEditor key={`${slug}-${id}`} adapter={current} model={model} initialValues={initialValues} connection={editing ? connection.data : undefined} />
    </section>
  );
}
