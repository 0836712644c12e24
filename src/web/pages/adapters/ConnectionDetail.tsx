import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { formatDate } from '../../../core/dates';
import { apiFetch } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { AdapterStatusBadge, Button, Card, Dialog, ErrorState, PageHeader, Spinner } from '../../ui';
import { adapterImage } from './adapterSearch';
import { connectionQuery, type ConnectivityResponse, type ConnectionResponse } from './connectionsApi';
import './adapters.css';

function optionText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function Settings({ connection }: { connection: ConnectionResponse }) {
  return (
    <dl className="connection-settings">
      {connection.option_connections.map((option) => (
        <div key={option.name}>
          <dt>{option.name}</dt>
          <dd>{optionText(option.typed_value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** `/adapters/connections/{id}`: a connection's status and settings (secrets masked), with test, edit and delete. */
export function ConnectionDetail() {
  const id = Number((useParams({ strict: false }) as { id: string }).id);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const connection = useQuery(connectionQuery(id));
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const name = connection.data?.name;
  useEffect(() => setBreadcrumb([{ label: 'Adapters', to: '/adapters' }, { label: 'Connections', to: '/adapters/connections' }, { label: name ?? String(id) }]), [id, name]);

  const check = useMutation({
    mutationFn: () => apiFetch<ConnectivityResponse>(`/adapters/test/${id}`, { method: 'POST' }),
    onSuccess: (result) => {
      notify(result.success ? 'success' : 'error', result.detail ?? (result.success ? 'Connected.' : 'The connection failed.'), { title: result.success ? 'Connection works' : 'Connection failed' });
      void queryClient.invalidateQueries({ queryKey: ['connection', id] });
      void queryClient.invalidateQueries({ queryKey: ['connections'] });
    },
  });
  const remove = useMutation({
    mutationFn: () => apiFetch(`/adapters/connections/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      notify('success', `${name} was deleted.`);
      void queryClient.invalidateQueries({ queryKey: ['connections'] });
      void navigate({ to: '/adapters/connections' });
    },
  });

  if (connection.isPending) return <Spinner label="Loading connection" />;
  if (connection.isError) return <ErrorState title="The connection could not be loaded" message={connection.error.message} onRetry={() => void connection.refetch()} />;
  const current = connection.data;
  return (
    <section className="adapters-page">
      <PageHeader
        title={<span className="connection-adapter"><img src={adapterImage(current.adapter)} alt="" width={28} height={28} />{current.name}</span>}
        description={current.description || `${current.adapter_name} connection`}
        meta={<AdapterStatusBadge status={current.status} />}
        actions={
          <>
            {hasPermission('adapters.change_connection') && (
              <>
                <Button loading={check.isPending} onClick={() => check.mutate()}>Test connection</Button>
                <Link className="ui-button ui-button--secondary ui-button--medium" to="/adapters/connection/edit/$id" params={{ id: String(id) }}>Edit</Link>
              </>
            )}
            {hasPermission('adapters.delete_connection') && <Button variant="danger" onClick={() => setConfirmingDelete(true)}>Delete</Button>}
          </>
        }
      />
      <Card title="Status">
        <dl className="connection-settings">
          <div><dt>Adapter</dt><dd><Link to="/adapters/connections/components/instructions/$tool" params={{ tool: current.adapter }}>{current.adapter_name}</Link></dd></div>
          <div><dt>Fetched by discoveries</dt><dd>{current.enabled ? 'Yes' : 'No (disabled)'}</dd></div>
          <div><dt>Connector</dt><dd>{current.connector_name}</dd></div>
          <div><dt>Last checked</dt><dd>{formatDate(current.last_checked_at)}</dd></div>
          <div><dt>Last result</dt><dd>{current.status_detail || '-'}</dd></div>
        </dl>
      </Card>
      <Card title="Settings"><Settings connection={current} /></Card>
      <Dialog
        open={confirmingDelete}
        onClose={() => setConfirmingDelete(false)}
        title={`Delete ${current.name}?`}
        description="Discoveries stop fetching it. Records it fetched stay in past snapshots."
        alert
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmingDelete(false)}>Cancel</Button>
            <Button variant="danger" loading={remove.isPending} onClick={() => remove.mutate()}>Delete</Button>
          </>
        }
      />
    </section>
  );
}
