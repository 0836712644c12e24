import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useId, useState } from 'react';
import type { PageProps } from '../../app/pageModules';
import { t } from '../../app/i18n/messages';
import { Button, Card, ErrorState, PageHeader, Select, Spinner } from '../../ui';
import { CustomAdapterEditor } from './customAdapter/CustomAdapterEditor';
import {
  customAdapterListPath, customAdaptersKey, customEntities, listCustomAdapters, uploadData, type CustomEntity, type DataUploadResponse, type SampleResponse,
} from './customAdapter/customAdaptersApi';
import { SampleInput, uploadErrorText } from './customAdapter/SampleInput';
import './customAdapter/customAdapters.css';

/**
 * `/settings/custom-adapter/upload/import-fields` and `/upload/initial-data`, one page whose mode is its path: read a
 * sample to define a new adapter's fields, or upload a data file into a connection of an adapter.
 */
export function CustomAdapterUpload(props: PageProps) {
  const importFields = props.route.path.endsWith('/import-fields');
  return (
    <section className="custom-adapter-upload-page">
      <PageHeader
        title={importFields ? t('customAdapters.upload.fieldsTitle') : t('customAdapters.upload.dataTitle')}
        description={importFields ? t('customAdapters.upload.fieldsDescription') : t('customAdapters.upload.dataDescription')}
      />
      {importFields ? <ImportFields /> : <InitialData />}
    </section>
  );
}

function ImportFields() {
  const navigate = useNavigate();
  const [entity, setEntity] = useState<CustomEntity>('device');
  const [sample, setSample] = useState<SampleResponse | null>(null);
  if (sample) {
    return (
      <CustomAdapterEditor
        key={sample.file_name} adapter={null} sample={sample}
        onSaved={(adapter) => void navigate({ to: `${customAdapterListPath}/upload/initial-data`, search: { adapter: adapter.id } })}
      />
    );
  }
  return (
    <Card title={t('customAdapters.upload.sampleStep')}>
      <Select
        label={t('customAdapters.form.entity')} value={entity} onValueChange={(value) => setEntity(value as CustomEntity)}
        options={customEntities.map((item) => ({ value: item, label: t(`customAdapters.entity.${item}`) }))}
      />
      <SampleInput entity={entity} onRead={setSample} />
    </Card>
  );
}

function InitialData() {
  const queryClient = useQueryClient();
  const fileId = useId();
  const { adapter: requested } = useSearch({ strict: false }) as { adapter?: number | string };
  const adapters = useQuery({ queryKey: customAdaptersKey, queryFn: listCustomAdapters });
  const [chosen, setChosen] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<{ sending: boolean; sent: number; error: string | null; result: DataUploadResponse | null }>({ sending: false, sent: 0, error: null, result: null });
  if (adapters.isError) return <ErrorState title={t('customAdapters.error.page')} message={adapters.error.message} />;
  if (!adapters.data) return <Spinner label={t('customAdapters.loading')} />;
  const list = adapters.data.results;
  if (!list.length) return <p>{t('customAdapters.upload.noAdapters')} <Link to={`${customAdapterListPath}/upload/import-fields`}>{t('customAdapters.list.fromSample')}</Link></p>;
  const selected = chosen ?? String(list.find((adapter) => String(adapter.id) === String(requested))?.id ?? list[0].id);
  const adapter = list.find((item) => String(item.id) === selected)!;
  const send = async () => {
    if (!file) return;
    setState({ sending: true, sent: 0, error: null, result: null });
    try {
      const result = await uploadData(adapter.id, file, (sent) => setState((current) => ({ ...current, sent })));
      setState({ sending: false, sent: 1, error: null, result });
      await queryClient.invalidateQueries({ queryKey: customAdaptersKey });
    } catch (error) {
      setState({ sending: false, sent: 0, error: uploadErrorText(error), result: null });
    }
  };
  const identifiers = adapter.fields.filter((field) => field.identifier).map((field) => field.column);
  return (
    <Card title={t('customAdapters.upload.dataStep')}>
      <Select label={t('customAdapters.upload.adapter')} value={selected} onValueChange={setChosen} options={list.map((item) => ({ value: String(item.id), label: item.name }))} />
      <p>{t('customAdapters.upload.expects', { columns: adapter.fields.map((field) => field.column).join(', '), identifiers: identifiers.join(', ') })}</p>
      <div className="custom-adapter-sample">
        <label htmlFor={fileId}>{t('customAdapters.upload.file')}</label>
        <input id={fileId} type="file" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
      </div>
      <Button onClick={() => void send()} disabled={!file} loading={state.sending}>{t('customAdapters.upload.send')}</Button>
      {state.sending && <p role="status">{t('customAdapters.upload.sending', { percent: Math.round(state.sent * 100) })}</p>}
      {state.error && <p role="alert" className="custom-adapter-error">{state.error}</p>}
      {state.result && (
        <p role="status">
          {t(state.result.created ? 'customAdapters.upload.doneCreated' : 'customAdapters.upload.doneReplaced', { file: state.result.file_name, adapter: adapter.name })}{' '}
          <Link to={`/adapters/connections/${state.result.connection}`}>{t('customAdapters.upload.openConnection')}</Link>{' · '}
          <Link to="/discoveries">{t('customAdapters.upload.runDiscovery')}</Link>
        </p>
      )}
    </Card>
  );
}
