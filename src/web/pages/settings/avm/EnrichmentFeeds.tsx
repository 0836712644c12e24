import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { apiFetch, apiUpload, ApiError } from '../../../app/http';
import { t } from '../../../app/i18n/messages';
import { notify } from '../../../app/notifications/notifications';
import { getSession } from '../../../app/session/session';
import { formatNumber } from '../../../../core/format/numbers';
import { Badge, Button, Card, RelativeTime, Table, type BadgeTone, type TableColumn } from '../../../ui';
import './avm.css';

type Enrichment = {
  slug: string; name: string; description: string; status: string; status_detail: string; record_count: number;
  last_imported_at: string | null; last_error: string;
};

const statusTones: Record<string, BadgeTone> = { imported: 'success', importing: 'info', failed: 'danger', never_imported: 'neutral' };
// Message keys, read at render: the message file is installed before any page renders, not before modules load.
const statusKeys: Record<string, string> = {
  imported: 'settings.feeds.statusImported', importing: 'settings.feeds.statusImporting', failed: 'settings.feeds.statusFailed', never_imported: 'settings.feeds.statusNeverImported',
};
// The file each feed takes; a feed without one is described by the server.
const feedFileKeys: Record<string, string> = {
  'nvd-cve': 'settings.feeds.fileNvdCve', 'cisa-kev': 'settings.feeds.fileCisaKev', 'first-epss': 'settings.feeds.fileFirstEpss', 'nvd-cpe': 'settings.feeds.fileNvdCpe',
  'endoflife-date': 'settings.feeds.fileEndoflifeDate', osv: 'settings.feeds.fileOsv',
};
const keyText = (key: string | undefined, otherwise: string) => (key ? t(key) : otherwise);
// How often the list is read again while a feed imports, so its progress ("… records read") shows as it runs.
const importingPollMs = 1500;

/** One feed's upload button: a hidden file input, the share sent while it uploads, the import's error after. */
function UploadButton({ feed, onStart, onDone }: { feed: Enrichment; onStart: () => void; onDone: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [sent, setSent] = useState<number | null>(null);
  const upload = async (file: File) => {
    setSent(0);
    onStart();
    try {
      const answer = await apiUpload<Enrichment>(`/avm/enrichments/${feed.slug}/upload`, file, { onProgress: setSent, silent: true });
      notify('success', t('settings.feeds.uploaded', { name: feed.name, count: answer.record_count }));
    } catch (error) {
      const message = error instanceof ApiError ? Object.values(error.fieldErrors).flat()[0] ?? (error.body as { detail?: string } | null)?.detail : null;
      notify('error', message ?? (error as Error).message);
    } finally {
      setSent(null);
      onDone();
    }
  };
  return (
    <>
      <input
        ref={input} type="file" hidden aria-label={t('settings.feeds.fileLabel', { name: feed.name })} data-testid={`upload-${feed.slug}`}
        onChange={(event) => { const file = event.target.files?.[0]; event.target.value = ''; if (file) void upload(file); }}
      />
      <Button size="small" variant="secondary" disabled={sent !== null} onClick={() => input.current?.click()}>
        {sent === null ? t('settings.feeds.importFile') : sent < 1 ? t('settings.feeds.uploading', { percent: Math.round(sent * 100) }) : t('settings.feeds.importing')}
      </Button>
    </>
  );
}

/** The feeds Cartograph imports (the AVM's and the OS lifecycle feed): status, records in use, last import and error, with an upload per feed. */
export function EnrichmentFeeds() {
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState(0);
  const feeds = useQuery({
    queryKey: ['avm-enrichments'], queryFn: () => apiFetch<{ results: Enrichment[] }>('/avm/enrichments?page=1&size=1000'),
    refetchInterval: (query) => (uploading > 0 || query.state.data?.results.some((feed) => feed.status === 'importing') ? importingPollMs : false),
  });
  const mayImport = (getSession().user?.permissions ?? []).includes('avm.change_vulnerabilityenrichment');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['avm-enrichments'] });
  const columns: TableColumn<Enrichment>[] = [
    { id: 'name', header: t('settings.feeds.feed'), cell: (feed) => <><strong>{feed.name}</strong><div className="enrichment-feeds__hint">{keyText(feedFileKeys[feed.slug], feed.description)}</div></> },
    { id: 'status', header: t('settings.feeds.status'), cell: (feed) => <Badge tone={statusTones[feed.status] ?? 'neutral'}>{keyText(statusKeys[feed.status], feed.status)}</Badge> },
    { id: 'records', header: t('settings.feeds.records'), align: 'end', cell: (feed) => formatNumber(feed.record_count) },
    { id: 'last', header: t('settings.feeds.lastImport'), cell: (feed) => <RelativeTime value={feed.last_imported_at} /> },
    { id: 'detail', header: t('settings.feeds.detail'), cell: (feed) => <span data-testid={`detail-${feed.slug}`}>{feed.status_detail}</span> },
    ...(mayImport ? [{ id: 'import', header: '', cell: (feed: Enrichment) => <UploadButton feed={feed} onStart={() => setUploading((count) => count + 1)} onDone={() => { setUploading((count) => count - 1); refresh(); }} /> }] : []),
  ];
  const downloadNow = async () => {
    try {
      await apiFetch('/avm/enrichments/download', { method: 'POST' });
      notify('success', t('settings.feeds.downloadStarted'));
      setTimeout(refresh, importingPollMs);
    } catch (error) {
      notify('error', (error as Error).message);
    }
  };
  return (
    <Card title={t('settings.feeds.title')}>
      <p>{t('settings.feeds.text')}</p>
      {mayImport && getSession().company?.is_constant ? <p><Button size="small" variant="secondary" onClick={() => void downloadNow()}>{t('settings.feeds.downloadNow')}</Button></p> : null}
      <Table columns={columns} rows={feeds.data?.results ?? []} rowKey={(feed) => feed.slug} caption={t('settings.feeds.title')} loading={feeds.isPending} />
    </Card>
  );
}
