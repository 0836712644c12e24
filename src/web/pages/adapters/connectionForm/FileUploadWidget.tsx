import { t } from '../../../app/i18n/messages';
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useRef } from 'react';
import type { ConnectionFormContext } from './SecretWidget';

const megabytes = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(bytes < 1024 ** 2 ? 2 : 1)} MB`;

/**
 * The file of an uploaded-file source (`x-widget: file`). The chosen file is not put in the form: it is sent to the
 * connection's upload endpoint once the connection is saved, streamed whatever its size, with its progress shown.
 * The value stays the reference of the file uploaded before, if any.
 */
export function FileUploadWidget({ id, value, label, disabled, readonly, schema, rawErrors, registry }: WidgetProps) {
  const upload = (registry.formContext as ConnectionFormContext | undefined)?.upload;
  const chosen = upload?.file ?? null;
  const progress = upload?.progress ?? null;
  // Choosing another source (a URL, a path) removes this field: the file chosen for it is then not uploaded.
  const choose = useRef(upload?.onChoose);
  choose.current = upload?.onChoose;
  useEffect(() => () => choose.current?.(null), []);
  const status = progress !== null
    ? (chosen ? t('adapters.uploadingFile', { name: chosen.name, percent: Math.round(progress * 100) }) : t('adapters.uploadingTheFile', { percent: Math.round(progress * 100) }))
    : chosen
      ? t('adapters.fileUploadedWhenSave', { name: chosen.name, size: megabytes(chosen.size) })
      : typeof value === 'string' && value.startsWith('uploads/')
        ? t('adapters.fileUploadedChooseAnother')
        : t('adapters.noFileUploadedYet');
  return (
    <div className="ui-field connection-file">
      <label className="ui-field__label" htmlFor={id}>{label}</label>
      <input id={id} type="file" disabled={disabled || readonly || progress !== null} aria-describedby={`${id}-status`}
        onChange={(event) => upload?.onChoose(event.target.files?.[0] ?? null)} />
      <p id={`${id}-status`} className="ui-field__message" role="status">{status}</p>
      {progress !== null ? <progress className="connection-file__progress" max={1} value={progress} aria-label={chosen ? t('adapters.uploadOfFile', { name: chosen.name }) : t('adapters.uploadOfTheFile')} /> : null}
      {schema.description ? <p className="ui-field__message">{schema.description}</p> : null}
      {rawErrors?.length ? <p className="ui-field__error" role="alert">{rawErrors.join(' ')}</p> : null}
    </div>
  );
}
