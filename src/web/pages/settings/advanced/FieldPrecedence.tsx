import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiFetch, useFieldErrors } from '../../../app/http';
import { t } from '../../../app/i18n/messages';
import { notify } from '../../../app/notifications/notifications';
import { hasPermission, useSession } from '../../../app/session/session';
import { Button, Card, EmptyState, Select } from '../../../ui';
import { discoveryConfigurationQuery } from '../../inventories/inventoryApi';
import { settingsDocumentQuery } from '../avm/SettingsDocumentForm';
import { moved, precedenceFields, withoutEmpty, type Ordering } from './precedence';
import './advanced.css';

type ConnectionRow = { id: number; name: string; adapter: string };
const connectionPrefix = 'connection:';

/** The saved settings document's `ordering`, edited field by field: which source wins a field when sources disagree. */
export function FieldPrecedence({ path, changePermission }: { path: string; changePermission: string }) {
  const document = useQuery(settingsDocumentQuery<{ ordering?: Ordering }>(path));
  const configuration = useQuery(discoveryConfigurationQuery());
  const connections = useQuery({
    queryKey: ['settings', 'precedence-connections'],
    queryFn: () => apiFetch<{ results: ConnectionRow[] }>('/adapters/connections', { query: { page: 1, size: 1000 } }),
    enabled: hasPermission('adapters.view_connection'),
  });
  const { adapters } = useSession();
  const queryClient = useQueryClient();
  const errors = useFieldErrors(path, ['ordering', 'ordering.*']);
  const [draft, setDraft] = useState<Ordering | null>(null);
  const [newField, setNewField] = useState('');
  const [saving, setSaving] = useState(false);
  const mayChange = hasPermission(changePermission);
  if (!document.data) return null;
  const ordering = draft ?? document.data.ordering ?? {};
  const change = (next: Ordering) => setDraft(next);

  const adapterName = new Map(adapters.map((adapter) => [adapter.slug, adapter.name]));
  const connectionRows = connections.data?.results ?? [];
  const sourceLabel = (source: string) => {
    if (!source.startsWith(connectionPrefix)) return adapterName.get(source) ?? source;
    const row = connectionRows.find((connection) => `${connectionPrefix}${connection.id}` === source);
    return row ? t('settings.precedence.connectionLabel', { name: row.name, adapter: adapterName.get(row.adapter) ?? row.adapter }) : source;
  };
  const sources = [...adapters.map((adapter) => adapter.slug), ...connectionRows.map((row) => `${connectionPrefix}${row.id}`)];
  const fields = precedenceFields(configuration.data as Record<string, unknown> | undefined).filter((field) => !(field in ordering));
  // The default order ranks the whole catalogue: name only the adapters the company has connections of.
  const connected = new Set(connectionRows.map((row) => row.adapter));
  const defaultOrder = ((configuration.data?.default_source_order as string[] | undefined) ?? []).filter((slug) => connected.has(slug));
  const orderingErrors = Object.entries(errors).filter(([key]) => key === 'ordering' || key.startsWith('ordering.')).flatMap(([, messages]) => messages);

  const save = async () => {
    setSaving(true);
    try {
      const saved = await apiFetch<{ ordering: Ordering }>(path, { method: 'PUT', body: { ...document.data, ordering: withoutEmpty(ordering) } });
      queryClient.setQueryData(['settings-document', path], saved);
      // The inventories read the precedence from the discovery configuration, fetched once: fetch it again.
      await queryClient.invalidateQueries({ queryKey: ['configurations', 'discovery'] });
      setDraft(null);
      notify('success', t('settings.precedence.saved'));
    } catch {
      // apiFetch notified, and its field errors show under the editor.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t('settings.precedence.title')}>
      <p className="field-precedence__hint">{t('settings.precedence.description')}</p>
      <p className="field-precedence__hint">
        {defaultOrder.length > 0 ? t('settings.precedence.defaultOrder', { sources: defaultOrder.map(sourceLabel).join(', ') }) : t('settings.precedence.defaultRule')}
      </p>
      {Object.keys(ordering).length === 0 && <EmptyState title={t('settings.precedence.none')} />}
      <ul className="field-precedence" aria-label={t('settings.precedence.title')}>
        {Object.entries(ordering).map(([field, list]) => (
          <li key={field} className="field-precedence__field">
            <div className="field-precedence__head">
              <code>{field}</code>
              <Button variant="ghost" size="small" disabled={!mayChange} onClick={() => change(Object.fromEntries(Object.entries(ordering).filter(([name]) => name !== field)))}>
                {t('settings.precedence.removeField', { field })}
              </Button>
            </div>
            <ol className="field-precedence__sources" aria-label={t('settings.precedence.sourcesOf', { field })}>
              {list.map((source, index) => (
                <li key={source} className="field-precedence__source">
                  <span>{sourceLabel(source)}</span>
                  <Button variant="ghost" size="small" disabled={!mayChange || index === 0} aria-label={t('settings.precedence.up', { source: sourceLabel(source), field })} onClick={() => change({ ...ordering, [field]: moved(list, index, -1) })}>↑</Button>
                  <Button variant="ghost" size="small" disabled={!mayChange || index === list.length - 1} aria-label={t('settings.precedence.down', { source: sourceLabel(source), field })} onClick={() => change({ ...ordering, [field]: moved(list, index, 1) })}>↓</Button>
                  <Button variant="ghost" size="small" disabled={!mayChange} aria-label={t('settings.precedence.removeSource', { source: sourceLabel(source), field })} onClick={() => change({ ...ordering, [field]: list.filter((item) => item !== source) })}>×</Button>
                </li>
              ))}
            </ol>
            <Select
              label={t('settings.precedence.addSource', { field })} value="" placeholder={t('settings.precedence.choose')} disabled={!mayChange}
              options={sources.filter((source) => !list.includes(source)).map((source) => ({ value: source, label: sourceLabel(source) }))}
              onValueChange={(source) => source && change({ ...ordering, [field]: [...list, source] })}
            />
          </li>
        ))}
      </ul>
      <div className="field-precedence__add">
        <Select label={t('settings.precedence.field')} value={newField} placeholder={t('settings.precedence.choose')} disabled={!mayChange} options={fields.map((field) => ({ value: field, label: field }))} onValueChange={setNewField} />
        <Button variant="secondary" disabled={!mayChange || !newField} onClick={() => { change({ ...ordering, [newField]: [] }); setNewField(''); }}>
          {t('settings.precedence.addField')}
        </Button>
      </div>
      {orderingErrors.length > 0 && <ul className="field-precedence__errors" role="alert">{orderingErrors.map((message) => <li key={message}>{message}</li>)}</ul>}
      <div className="field-precedence__actions">
        <Button onClick={() => void save()} loading={saving} disabled={!mayChange || draft === null}>{t('settings.precedence.save')}</Button>
      </div>
    </Card>
  );
}
