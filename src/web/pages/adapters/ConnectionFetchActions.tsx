import { t } from '../../app/i18n/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { formatPercent } from '../../../core/format/numbers';
import { apiFetch, apiUpload } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { Button } from '../../ui';
import type { ConnectionResponse } from './connectionsApi';

/**
 * "Fetch now" and, for a connection that reads an uploaded file, "Upload a new file". A discovery always fetches every
 * enabled connection into one snapshot (a snapshot of one source would drop every other source's assets), so "Fetch
 * now" starts a discovery, and says so; it is offered only for an enabled connection.
 */
export function ConnectionFetchActions({ connection }: { connection: ConnectionResponse }) {
  const queryClient = useQueryClient();
  const picker = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<{ name: string; share: number } | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['connection', connection.id] });
    void queryClient.invalidateQueries({ queryKey: ['connections'] });
  };
  const fetchNow = useMutation({
    mutationFn: () => apiFetch('/discoveries/discoveries', { method: 'POST' }),
    onSuccess: () => {
      notify('success', t('adapters.discoveryStarted'));
      void queryClient.invalidateQueries({ queryKey: ['discoveries'] });
    },
  });
  const upload = useMutation({
    mutationFn: (file: File) => {
      setProgress({ name: file.name, share: 0 });
      return apiUpload<{ file_name: string }>(`/adapters/connections/${connection.id}/file`, file, { onProgress: (share) => setProgress({ name: file.name, share }) });
    },
    onSuccess: (result) => {
      notify('success', t('adapters.fileUploaded', { name: result.file_name }));
      refresh();
    },
    onSettled: () => setProgress(null),
  });
  const mayFetch = connection.enabled && hasPermission('discoveries.start_discovery');
  const mayUpload = connection.takes_upload && hasPermission('adapters.change_connection');
  return (
    <>
      {mayFetch && <Button title={t('adapters.fetchNowHint')} loading={fetchNow.isPending} onClick={() => fetchNow.mutate()}>{t('adapters.fetchNow')}</Button>}
      {mayUpload && (
        <>
          <input
            ref={picker} type="file" hidden aria-label={t('adapters.chooseFileToUpload')}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              event.currentTarget.value = '';
              if (file) upload.mutate(file);
            }}
          />
          <Button loading={upload.isPending} onClick={() => picker.current?.click()}>
            {progress ? t('adapters.uploadingFileShare', { name: progress.name, share: formatPercent(progress.share, 0) }) : t('adapters.uploadNewFile')}
          </Button>
        </>
      )}
    </>
  );
}
