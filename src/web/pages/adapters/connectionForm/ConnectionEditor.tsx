import { t } from '../../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { hasPermission } from '../../../app/session/session';
import { Button, Card, Select, Switch, TextInput, Textarea } from '../../../ui';
import type { ConnectionResponse } from '../connectionsApi';
import { connectorsQuery, failureReasons, type AdapterResponse } from './connectionFormApi';
import type { ConnectionFormModel, ConnectionValues } from './connectionModel';
import { customForms } from './customForms';
import { SettingsForm } from './SettingsForm';
import { useConnectionEditor, type GeneralValues, type TestOutcome } from './useConnectionEditor';
import './connectionForm.css';

export type ConnectionEditorProps = {
  adapter: AdapterResponse;
  model: ConnectionFormModel;
  initialValues: ConnectionValues;
  /** The connection being edited; absent when creating one. */
  connection?: ConnectionResponse;
};

function ConnectorField({ value, fallback, error, disabled, onChange }: { value: number | null; fallback: string; error?: string[]; disabled: boolean; onChange: (id: number) => void }) {
  const allowed = hasPermission('connectors.view_connector');
  const connectors = useQuery({ ...connectorsQuery(), enabled: allowed });
  const rows = connectors.data?.results ?? [];
  const chosen = value ?? rows.find((row) => row.is_default)?.id ?? null;
  if (!allowed || !rows.length) return <p className="connection-form__connector">{t('adapters.runsFallbackConnector', { fallback })}</p>;
  return (
    <Select id="connection-connector" label={t('adapters.connector')} message={t('adapters.whereFetchesConnectionRun')} error={error} disabled={disabled}
      options={rows.map((row) => ({ value: String(row.id), label: row.is_default ? t('adapters.nameBuiltIn', { name: row.name }) : row.name }))}
      value={chosen === null ? '' : String(chosen)} onValueChange={(text) => onChange(Number(text))} />
  );
}

function Outcome({ outcome }: { outcome: TestOutcome }) {
  if (outcome.kind === 'success') return <div className="connection-test connection-test--success" role="status"><strong>{outcome.title}.</strong> {outcome.detail}</div>;
  if (outcome.kind === 'notice') return <div className="connection-test" role="status"><strong>{outcome.title}.</strong> {outcome.detail}</div>;
  const reason = failureReasons[outcome.title];
  return (
    <div className="connection-test connection-test--failure" role="alert">
      <strong>{reason ? t('adapters.connectionFailedReason', { reason }) : t('adapters.connectionFailedStop')}</strong> {outcome.detail}
    </div>
  );
}

/** The connection form once its adapter, schema and (when editing) connection are loaded. */
export function ConnectionEditor({ adapter, model, initialValues, connection }: ConnectionEditorProps) {
  const custom = customForms[adapter.slug];
  const editor = useConnectionEditor({ adapter, model, connection, initialValues, extraMessages: custom?.extraMessages });
  const readOnly = !adapter.can_fetch;
  const inert = readOnly || editor.busy !== null;
  const Settings = custom?.Form ?? SettingsForm;
  const { general, generalErrors } = editor;
  const change = (changes: Partial<GeneralValues>) => editor.changeGeneral(changes);
  const others = Object.entries(editor.otherErrors);

  return (
    <div className="connection-form">
      {readOnly ? (
        <div className="connection-form__notice" role="note">
          <strong>{t('adapters.cartographCannotFetchFrom', { name: adapter.name })}</strong>{' '}{t('adapters.hasNoEngineAdapter')}
        </div>
      ) : null}
      <p className="connection-form__instructions">
        {t('adapters.notSureWhatFill')}{' '}
        <Link to="/adapters/connections/components/instructions/$tool" params={{ tool: adapter.slug }}>{t('adapters.nameInstructions', { name: adapter.name })}</Link>.
      </p>
      {others.length ? (
        <div className="schema-form__alert" role="alert">
          {others.map(([field, messages]) => <p key={field}>{field === 'non_field_errors' ? messages.join(' ') : `${field}: ${messages.join(' ')}`}</p>)}
        </div>
      ) : null}
      <Card title={t('adapters.connection')}>
        <div className="connection-form__general">
          <TextInput id="connection-name" label={t('adapters.name')} required value={general.name} error={generalErrors.name} disabled={inert} maxLength={200}
            onValueChange={(name) => change({ name })} onBlur={(event) => void editor.checkField('name', { ...general, name: event.target.value })} />
          <Textarea id="connection-description" label={t('adapters.description')} message={t('adapters.notesOtherAdministrators')} value={general.description} error={generalErrors.description} disabled={inert} rows={2}
            onValueChange={(description) => change({ description })} onBlur={(event) => void editor.checkField('description', { ...general, description: event.target.value })} />
          <Switch id="connection-enabled" label={t('adapters.fetchedByDiscoveries')} message={t('adapters.disabledConnectionKeptBut')} checked={general.enabled} disabled={inert}
            onCheckedChange={(enabled) => change({ enabled })} />
          <ConnectorField value={general.connector} fallback={connection?.connector_name ?? t('adapters.defaultConnector')} error={generalErrors.connector} disabled={inert} onChange={(connector) => change({ connector })} />
        </div>
      </Card>
      <Card title={t('adapters.nameSettings', { name: adapter.name })}>
        <Settings
          model={model}
          values={editor.values}
          onValuesChange={editor.changeValues}
          onFieldBlur={(path, values) => void editor.checkField(path, general, values)}
          errors={editor.settingsErrors}
          storedSecretIds={editor.storedSecretIds}
          upload={editor.upload}
          disabled={inert}
          onSubmit={() => void editor.save()}
        />
      </Card>
      {editor.outcome ? <Outcome outcome={editor.outcome} /> : null}
      <div className="connection-form__actions">
        {readOnly ? null : (
          <>
            <Button type="button" onClick={() => void editor.save()} loading={editor.busy === 'save'} disabled={editor.busy === 'test'}>{connection ? t('adapters.save') : t('adapters.createConnection')}</Button>
            <Button type="button" variant="secondary" onClick={() => void editor.test()} loading={editor.busy === 'test'} disabled={editor.busy === 'save'}>{t('adapters.testConnection')}</Button>
          </>
        )}
        {connection ? (
          <Link className="ui-button ui-button--secondary ui-button--medium" to="/adapters/connections/$id" params={{ id: String(connection.id) }}>{t('adapters.cancel')}</Link>
        ) : (
          <Link className="ui-button ui-button--secondary ui-button--medium" to="/adapters">{t('adapters.cancel')}</Link>
        )}
      </div>
    </div>
  );
}
