import { useId, useState } from 'react';
import { ApiError } from '../../../app/http';
import { t } from '../../../app/i18n/messages';
import { uploadSample, type CustomEntity, type SampleResponse } from './customAdaptersApi';

/** The file the server refused and why: a field error on `file`, or the answer's detail. */
export function uploadErrorText(error: unknown): string {
  if (error instanceof ApiError) return error.fieldErrors.file?.[0] ?? error.message;
  return (error as Error).message;
}

/** Reads a CSV or XLSX sample on the server: its columns, their inferred types and suggested fields, its first rows. */
export function SampleInput({ entity, onRead }: { entity: CustomEntity; onRead: (sample: SampleResponse) => void }) {
  const id = useId();
  const [state, setState] = useState<{ reading: boolean; error: string | null; read: string | null }>({ reading: false, error: null, read: null });
  const read = async (file: File | undefined) => {
    if (!file) return;
    setState({ reading: true, error: null, read: null });
    try {
      const sample = await uploadSample(file, entity);
      setState({ reading: false, error: null, read: t('customAdapters.sample.read', { file: sample.file_name, columns: sample.columns.length, rows: sample.rows_read }) });
      onRead(sample);
    } catch (error) {
      setState({ reading: false, error: uploadErrorText(error), read: null });
    }
  };
  return (
    <div className="custom-adapter-sample">
      <label htmlFor={id}>{t('customAdapters.sample.label')}</label>
      <input id={id} type="file" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" onChange={(event) => void read(event.target.files?.[0])} />
      <p className="custom-adapter-sample__hint">{t('customAdapters.sample.hint')}</p>
      {state.reading && <p role="status">{t('customAdapters.sample.reading')}</p>}
      {state.read && <p role="status">{state.read}</p>}
      {state.error && <p role="alert" className="custom-adapter-error">{state.error}</p>}
    </div>
  );
}
