import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { formatDate } from '../../../core/dates';
import { apiFetch } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Button, Card, Dialog, ErrorState, PageHeader, RelativeTime, Spinner } from '../../ui';
import { adapterImage } from './adapterSearch';
import { connectionSchemaLoader, connectionSchemaQuery } from './connectionForm/connectionFormApi';
import { ConnectionFetchActions } from './ConnectionFetchActions';
import { ConnectionStatusBadge } from './ConnectionStatusBadge';
import { connectionQuery, type ConnectivityResponse, type ConnectionResponse } from './connectionsApi';
import './adapters.css';

type OptionSchema = {
  title?: string; description?: string; const?: unknown; 'x-enum-labels'?: Record<string, string>;
  properties?: Record<string, OptionSchema>; oneOf?: { title?: string; properties?: Record<string, OptionSchema> }[];
};

/**
 * A setting as the form shows it, never as JSON: a choice by its label, a yes/no, a file source by its kind and
 * file name (a path on the server is not shown), a mapping as "column → field".
 */
function optionText(value: unknown, property: OptionSchema | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'boolean') return value ? t('adapters.yes') : t('adapters.no');
  const labels = property?.['x-enum-labels'];
  if ((typeof value === 'string' || typeof value === 'number') && labels && Object.hasOwn(labels, String(value))) return labels[String(value)]!;
  if (Array.isArray(value)) return value.map((item) => optionText(item, undefined)).join(', ') || '-';
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // A choice of several kinds (a file source, a way to sign in) reads as the kind's title, as the form offers it.
    const branch = property?.oneOf?.find((candidate) => Object.entries(candidate.properties ?? {}).some(([key, child]) => child.const !== undefined && child.const === record[key]));
    if (branch) {
      const detail = typeof record.file_name === 'string' ? record.file_name : typeof record.file_url === 'string' ? record.file_url : '';
      return [branch.title, detail].filter(Boolean).join(': ');
    }
    // Nested settings by their titles; a fixed kind (`auth_type: api_token`) by the label its form gives it.
    if (property?.properties) {
      return Object.entries(record).map(([key, item]) => {
        const child = property.properties?.[key];
        const text = child?.const !== undefined && child.const === item && child.description ? child.description : optionText(item, child);
        return `${child?.title ?? key}: ${text}`;
      }).join('; ');
    }
    return Object.entries(record).map(([key, item]) => `${key} → ${optionText(item, undefined)}`).join('; ') || '-';
  }
  return String(value);
}

/** The connection's settings labelled by its form's titles (a setting the schema lacks keeps its name). */
function Settings({ connection }: { connection: ConnectionResponse }) {
  const schema = useQuery({ ...connectionSchemaQuery(connection.adapter), enabled: Boolean(connectionSchemaLoader(connection.adapter)) });
  const properties = ((schema.data as { properties?: Record<string, OptionSchema> } | undefined)?.properties) ?? {};
  return (
    <dl className="connection-settings">
      {connection.option_connections.map((option) => (
        <div key={option.name}>
          <dt>{properties[option.name]?.title ?? option.name}</dt>
          <dd>{optionText(option.typed_value, properties[option.name])}</dd>
        </div>
      ))}
    </dl>
  );
}

/** `/adapters/connections/{id}`: a connection's status and settings (secrets masked), with fetch, upload, test, edit and delete. */
export function ConnectionDetail() {
  const id = Number((useParams({ strict: false }) as { id: string }).id);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const connection = useQuery(connectionQuery(id));
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const name = connection.data?.name;
  useEffect(() => setBreadcrumb([{ label: t('adapters.adapters'), to: '/adapters' }, { label: t('adapters.connections'), to: '/adapters/connections' }, { label: name ?? String(id) }]), [id, name]);

  const check = useMutation({
    mutationFn: () => apiFetch<ConnectivityResponse>(`/adapters/test/${id}`, { method: 'POST' }),
    onSuccess: (result) => {
      notify(result.success ? 'success' : 'error', result.detail ?? (result.success ? t('adapters.connected') : t('adapters.theConnectionFailed')), { title: result.success ? t('adapters.connectionWorks') : t('adapters.connectionFailed') });
      void queryClient.invalidateQueries({ queryKey: ['connection', id] });
      void queryClient.invalidateQueries({ queryKey: ['connections'] });
    },
  });
  const remove = useMutation({
    mutationFn: () => apiFetch(`/adapters/connections/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      notify('success', t('adapters.nameWasDeleted', { name: name ?? '' }));
      void queryClient.invalidateQueries({ queryKey: ['connections'] });
      void navigate({ to: '/adapters/connections' });
    },
  });

  if (connection.isPending) return <Spinner label={t('adapters.loadingConnection')} />;
  if (connection.isError) return <ErrorState title={t('adapters.connectionCouldNotLoaded')} message={connection.error.message} onRetry={() => void connection.refetch()} />;
  const current = connection.data;
  return (
    <section className="adapters-page">
      <PageHeader
        title={<span className="connection-adapter"><img src={adapterImage(current.adapter)} alt="" width={28} height={28} />{current.name}</span>}
        description={current.description || t('adapters.adapterNameConnection', { adapter_name: current.adapter_name })}
        meta={<ConnectionStatusBadge connection={current} />}
        actions={
          <>
            <ConnectionFetchActions connection={current} />
            {hasPermission('adapters.change_connection') && (
              <>
                <Button loading={check.isPending} onClick={() => check.mutate()}>{t('adapters.testConnection')}</Button>
                <Link className="ui-button ui-button--secondary ui-button--medium" to="/adapters/connection/edit/$id" params={{ id: String(id) }}>{t('adapters.edit')}</Link>
              </>
            )}
            {hasPermission('adapters.delete_connection') && <Button variant="danger" onClick={() => setConfirmingDelete(true)}>{t('adapters.delete')}</Button>}
          </>
        }
      />
      <Card title={t('adapters.status')}>
        <dl className="connection-settings">
          <div><dt>{t('adapters.adapter')}</dt><dd><Link to="/adapters/connections/components/instructions/$tool" params={{ tool: current.adapter }}>{current.adapter_name}</Link></dd></div>
          <div><dt>{t('adapters.fetchedByDiscoveries')}</dt><dd>{current.enabled ? t('adapters.yes') : t('adapters.noDisabled')}</dd></div>
          <div><dt>{t('adapters.connector')}</dt><dd>{current.connector_name}</dd></div>
          <div><dt>{t('adapters.lastFetched')}</dt><dd>{current.last_checked_at ? <RelativeTime value={current.last_checked_at} /> : t('adapters.statusNotFetchedYet')}</dd></div>
          <div><dt>{t('adapters.lastFetchResult')}</dt><dd>{current.status_detail || '-'}</dd></div>
          <div><dt>{t('adapters.lastTest')}</dt><dd>{current.tested_at ? <><RelativeTime value={current.tested_at} />: {current.test_detail || (current.test_ok ? t('adapters.statusReachable') : t('adapters.statusUnreachable'))}</> : '-'}</dd></div>
        </dl>
      </Card>
      <Card title={t('adapters.settings')}><Settings connection={current} /></Card>
      <Dialog
        open={confirmingDelete}
        onClose={() => setConfirmingDelete(false)}
        title={t('adapters.deleteName', { name: current.name })}
        description={t('adapters.discoveriesStopFetchingRecords')}
        alert
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmingDelete(false)}>{t('adapters.cancel')}</Button>
            <Button variant="danger" loading={remove.isPending} onClick={() => remove.mutate()}>{t('adapters.delete')}</Button>
          </>
        }
      />
    </section>
  );
}
