import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { formatDate } from '../../../core/dates/index.js';
import { apiFetch, useFieldErrors } from '../../app/http';
import { t } from '../../app/i18n/messages';
import { navigateTo } from '../../app/navigation';
import { notify } from '../../app/notifications/notifications';
import type { PageProps } from '../../app/pageModules';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { routeParams } from '../../renderers/form/routeParams';
import { Button, Card, ErrorState, PageHeader, Spinner, Textarea, TextInput } from '../../ui';
import { ConnectorActions } from './connector/ConnectorActions';
import { connectorListPath, connectorQuery, connectorsPath, type ConnectorRecord, type IssuedConnector } from './connector/connectorsApi';
import { TokenDialog } from './connector/TokenDialog';
import './connector/connectors.css';

function ConnectorStatus({ connector }: { connector: ConnectorRecord }) {
  return (
    <Card title={t('connectors.statusCard')}>
      <dl className="connector-status">
        <dt>{t('connectors.version')}</dt><dd>{connector.version || t('connectors.neverSeen')}</dd>
        <dt>{t('connectors.host')}</dt><dd>{connector.host || '—'}</dd>
        <dt>{t('connectors.lastSeen')}</dt><dd>{formatDate(connector.last_seen_at)}</dd>
        <dt>{t('connectors.connections')}</dt><dd>{connector.connection_count}</dd>
        <dt>{t('connectors.waitingJobs')}</dt><dd>{connector.pending_jobs}</dd>
        <dt>{t('connectors.errors')}</dt>
        <dd>{connector.error_count ? <span className="connector-error">{connector.last_error} ({formatDate(connector.last_error_at)}, {connector.error_count})</span> : '—'}</dd>
      </dl>
    </Card>
  );
}

function NameFields({ connector, onSaved }: { connector: ConnectorRecord | null; onSaved: (saved: ConnectorRecord | IssuedConnector) => void }) {
  const callPath = connector ? `${connectorsPath}/${connector.id}` : connectorsPath;
  const serverErrors = useFieldErrors(callPath, ['name', 'description']);
  const [name, setName] = useState(connector?.name ?? '');
  const [description, setDescription] = useState(connector?.description ?? '');
  const [nameError, setNameError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setNameError(t('connectors.nameRequired'));
    setSaving(true);
    try {
      const saved = await apiFetch<ConnectorRecord | IssuedConnector>(callPath, { method: connector ? 'PUT' : 'POST', body: { name: name.trim(), description } });
      onSaved(saved);
    } catch {
      // Notified by the HTTP client; field errors show under the fields.
    } finally {
      setSaving(false);
    }
  };
  return (
    <form className="connector-form" onSubmit={(event) => void submit(event)} noValidate>
      <TextInput id="connector-name" label={t('connectors.name')} required maxLength={200} value={name}
        error={nameError ?? serverErrors.name?.join(' ')} onValueChange={(value) => { setName(value); setNameError(undefined); }} />
      <Textarea id="connector-description" label={t('connectors.descriptionField')} message={t('connectors.descriptionHelp')} maxLength={2000} value={description}
        error={serverErrors.description?.join(' ')} onValueChange={setDescription} />
      <div className="connector-form__actions">
        <Button type="submit" loading={saving}>{connector ? t('connectors.save') : t('connectors.create')}</Button>
        <Button variant="secondary" onClick={() => navigateTo(connectorListPath)}>{t('connectors.cancel')}</Button>
      </div>
    </form>
  );
}

/** `/settings/connector/create` and `/settings/connector/{id}/edit`: a remote connector, its token and its state. */
export function ConnectorForm({ route }: PageProps) {
  const id = routeParams(route.path).id ?? null;
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(null);
  const [created, setCreated] = useState<number | null>(null);
  const connector = useQuery({ ...connectorQuery(id ?? ''), enabled: id !== null });
  useEffect(() => setBreadcrumb([{ label: t('connectors.title'), to: connectorListPath }, { label: id ? t('connectors.editTitle') : t('connectors.createTitle') }]), [id]);
  const closeToken = () => {
    setToken(null);
    // After a create, the token is gone from the screen and the page becomes the new connector's edit page.
    if (created !== null) navigateTo(`${connectorListPath}/${created}/edit`);
  };
  const saved = (answer: ConnectorRecord | IssuedConnector) => {
    void queryClient.invalidateQueries({ queryKey: ['connectors'] });
    if ('token' in answer) {
      setCreated(answer.id);
      setToken(answer.token);
    } else {
      notify('success', t('connectors.savedNotice', { name: answer.name }));
    }
  };
  if (id && connector.isPending) return <Spinner label={t('connectors.loading')} />;
  if (id && connector.isError) return <ErrorState title={t('connectors.loadOneFailed')} message={connector.error.message} onRetry={() => void connector.refetch()} />;
  const record = connector.data ?? null;
  return (
    <section className="connector-edit">
      <PageHeader title={record ? t('connectors.editNamed', { name: record.name }) : t('connectors.createTitle')} description={t('connectors.formText')} />
      {record?.kind === 'local' ? (
        <p>{t('connectors.defaultText')}</p>
      ) : (
        <>
          <NameFields key={record?.id ?? 'new'} connector={record} onSaved={saved} />
          {record && <ConnectorStatus connector={record} />}
          {record && <ConnectorActions connector={record} onToken={setToken} />}
        </>
      )}
      <TokenDialog token={token} onClose={closeToken} />
    </section>
  );
}
