import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { apiFetch, apiUpload, ApiError } from '../../../app/http';
import { notify } from '../../../app/notifications/notifications';
import { getSession } from '../../../app/session/session';
import { Badge, Button, Card, Table, type BadgeTone, type TableColumn } from '../../../ui';
import './avm.css';

type Enrichment = {
  slug: string; name: string; description: string; status: string; status_detail: string; record_count: number;
  last_imported_at: string | null; last_error: string;
};

const statusTones: Record<string, BadgeTone> = { imported: 'success', importing: 'info', failed: 'danger', never_imported: 'neutral' };
const statusLabels: Record<string, string> = { imported: 'Imported', importing: 'Importing', failed: 'Failed', never_imported: 'Never imported' };
const feedFiles: Record<string, string> = {
  'nvd-cve': 'an NVD CVE JSON 2.0 file (nvdcve-2.0-*.json or .json.gz) or a saved CVE API 2.0 page',
  'cisa-kev': 'known_exploited_vulnerabilities.json from CISA',
  'first-epss': 'the EPSS CSV from FIRST (epss_scores-*.csv or .csv.gz)',
  'nvd-cpe': 'CPE API 2.0 pages (products) or CPE match criteria JSON 2.0 (matchStrings), plain or gzipped',
};
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
      notify('success', `${feed.name}: ${answer.record_count} records in use.`);
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
        ref={input} type="file" hidden aria-label={`${feed.name} file`} data-testid={`upload-${feed.slug}`}
        onChange={(event) => { const file = event.target.files?.[0]; event.target.value = ''; if (file) void upload(file); }}
      />
      <Button size="small" variant="secondary" disabled={sent !== null} onClick={() => input.current?.click()}>
        {sent === null ? 'Import a file' : sent < 1 ? `Uploading ${Math.round(sent * 100)}%` : 'Importing'}
      </Button>
    </>
  );
}

/** The feeds the AVM imports: status, records in use, last import and error, with an upload per feed. */
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
    { id: 'name', header: 'Feed', cell: (feed) => <><strong>{feed.name}</strong><div className="enrichment-feeds__hint">{feedFiles[feed.slug] ?? feed.description}</div></> },
    { id: 'status', header: 'Status', cell: (feed) => <Badge tone={statusTones[feed.status] ?? 'neutral'}>{statusLabels[feed.status] ?? feed.status}</Badge> },
    { id: 'records', header: 'Records', align: 'end', cell: (feed) => feed.record_count.toLocaleString() },
    { id: 'last', header: 'Last import', cell: (feed) => (feed.last_imported_at ? new Date(feed.last_imported_at).toLocaleString() : '—') },
    { id: 'detail', header: 'Detail', cell: (feed) => <span data-testid={`detail-${feed.slug}`}>{feed.status_detail}</span> },
    ...(mayImport ? [{ id: 'import', header: '', cell: (feed: Enrichment) => <UploadButton feed={feed} onStart={() => setUploading((count) => count + 1)} onDone={() => { setUploading((count) => count - 1); refresh(); }} /> }] : []),
  ];
  const downloadNow = async () => {
    try {
      await apiFetch('/avm/enrichments/download', { method: 'POST' });
      notify('success', 'The feeds are being downloaded from the addresses of the AVM configuration.');
      setTimeout(refresh, importingPollMs);
    } catch (error) {
      notify('error', (error as Error).message);
    }
  };
  return (
    <Card title="Vulnerability feeds">
      <p>
        Imported feeds enrich every vulnerability (CVSS from NVD when the source has none, CISA KEV, FIRST EPSS) and let Cartograph match installed
        software to CVEs. Files may also be imported from the server's import folders (CARTOGRAPH_IMPORT_DIRS) through the API, or downloaded
        from the addresses and on the schedule of the AVM configuration.
      </p>
      {mayImport && getSession().company?.is_constant ? <p><Button size="small" variant="secondary" onClick={() => void downloadNow()}>Download now</Button></p> : null}
      <Table columns={columns} rows={feeds.data?.results ?? []} rowKey={(feed) => feed.slug} caption="Vulnerability feeds" loading={feeds.isPending} />
    </Card>
  );
}
