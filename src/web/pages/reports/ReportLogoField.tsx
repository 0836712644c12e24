import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ApiError } from '../../app/http';
import { t } from '../../app/i18n/messages';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { Button } from '../../ui';
import { logoLimitBytes, removeReportLogo, reportLogoQuery, uploadReportLogo } from './reportsApi';

function base64Of(bytes: ArrayBuffer): string {
  let binary = '';
  const view = new Uint8Array(bytes);
  for (let start = 0; start < view.length; start += 0x8000) binary += String.fromCharCode(...view.subarray(start, start + 0x8000));
  return btoa(binary);
}

/**
 * The company's logo for report title pages: a preview, an upload (PNG or JPEG, at most 256 kB; the server checks the
 * file's bytes) and a remove button. The logo is the company's, shared by its reports: changing it needs
 * reports.change_report, and each report chooses whether to print it.
 */
export function ReportLogoField() {
  const inputId = useId();
  const logo = useQuery(reportLogoQuery());
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const canChange = hasPermission('reports.change_report');
  const stored = (data: unknown) => queryClient.setQueryData(reportLogoQuery().queryKey, data as never);
  const upload = useMutation({
    mutationFn: uploadReportLogo,
    onSuccess: (saved) => {
      setProblem(null);
      stored(saved);
      notify('success', t('reports.logo.uploaded'));
    },
    onError: (error) => setProblem(error instanceof ApiError ? (Object.values(error.fieldErrors).flat()[0] ?? error.message) : error.message),
  });
  const remove = useMutation({
    mutationFn: removeReportLogo,
    onSuccess: () => {
      setProblem(null);
      stored({ image: null, content_type: null, size: 0, updated_at: null });
      notify('success', t('reports.logo.removed'));
    },
  });
  const choose = async (file: File | undefined) => {
    setProblem(null);
    if (!file) return;
    // The server refuses it too; saying so here spares uploading a large file for nothing.
    if (file.size > logoLimitBytes) return setProblem(t('reports.logo.tooLarge', { size: Math.ceil(file.size / 1024) }));
    upload.mutate(base64Of(await file.arrayBuffer()));
  };
  const image = logo.data?.image;
  return (
    <div className="ui-field report-logo">
      <label className="ui-field__label" htmlFor={inputId}>{t('reports.logo.label')}</label>
      <div className="report-logo__preview">
        {image && logo.data?.content_type ? <img src={`data:${logo.data.content_type};base64,${image}`} alt={t('reports.logo.previewAlt')} /> : <span>{logo.isPending ? '…' : t('reports.logo.none')}</span>}
      </div>
      {canChange ? (
        <div className="report-logo__buttons">
          <input id={inputId} type="file" accept="image/png,image/jpeg" disabled={upload.isPending} onChange={(event) => { void choose(event.target.files?.[0]); event.target.value = ''; }} />
          {image ? <Button size="small" variant="ghost" loading={remove.isPending} onClick={() => remove.mutate()}>{t('reports.logo.remove')}</Button> : null}
        </div>
      ) : null}
      <p className="ui-field__message">{canChange ? t('reports.logo.help') : t('reports.logo.readOnly')}</p>
      {problem ? <p className="ui-field__error" role="alert">{problem}</p> : null}
    </div>
  );
}
