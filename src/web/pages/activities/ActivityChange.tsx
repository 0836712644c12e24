import { useState } from 'react';
import { formatNumber } from '../../../core/format/numbers';
import { t } from '../../app/i18n/messages';
import { Badge, Card, Checkbox, Table, type BadgeTone, type TableColumn } from '../../ui';
import { changeRows, fieldTitle, isTruncated, type ChangeRow, type ChangeState } from './changeDiff';

const stateLooks: Record<ChangeState, { tone: BadgeTone; label: () => string }> = {
  added: { tone: 'success', label: () => t('activities.change.added') },
  removed: { tone: 'danger', label: () => t('activities.change.removed') },
  changed: { tone: 'warning', label: () => t('activities.change.changed') },
  unchanged: { tone: 'neutral', label: () => t('activities.change.unchanged') },
};

const cellOf = (value: string | undefined) => (value === undefined ? <span className="activities__absent">{t('activities.change.absent')}</span> : <code className="activities__value">{value}</code>);

const columnsFor = (schema: Parameters<typeof fieldTitle>[1]): TableColumn<ChangeRow>[] => [
  // The field by its title where the schema of what was sent names it; its path in the tooltip.
  { id: 'field', get header() { return t('activities.change.field'); }, cell: (row) => <span title={row.field}>{fieldTitle(row.field, schema)}</span> },
  { id: 'state', get header() { return t('activities.change.state'); }, cell: (row) => <Badge tone={stateLooks[row.state].tone}>{stateLooks[row.state].label()}</Badge> },
  { id: 'before', get header() { return t('activities.change.before'); }, cell: (row) => cellOf(row.before) },
  { id: 'after', get header() { return t('activities.change.after'); }, cell: (row) => cellOf(row.after) },
];

/** A value the server cut at 64 kB: its size and the start of its JSON, since no field-by-field view is possible. */
function TruncatedNote({ label, size, preview }: { label: string; size: number; preview: string }) {
  return (
    <div className="activities__truncated">
      <p>{t('activities.change.truncated', { side: label, size: formatNumber(size) })}</p>
      <pre>{preview}</pre>
    </div>
  );
}

/**
 * The change an activity kept: each field before and after (changed ones first in view, unchanged ones on request).
 * Secrets were redacted by the server before the values were stored.
 */
export function ActivityChange({ before, after, schema }: { before: unknown; after: unknown; schema?: Parameters<typeof fieldTitle>[1] }) {
  const [showUnchanged, setShowUnchanged] = useState(false);
  if (before === null && after === null) {
    return <Card title={t('activities.change.title')}><p>{t('activities.change.notStored')}</p></Card>;
  }
  if (isTruncated(before) || isTruncated(after)) {
    return (
      <Card title={t('activities.change.title')}>
        {isTruncated(before) ? <TruncatedNote label={t('activities.change.before')} size={before.size_bytes} preview={before.preview} /> : null}
        {isTruncated(after) ? <TruncatedNote label={t('activities.change.after')} size={after.size_bytes} preview={after.preview} /> : null}
      </Card>
    );
  }
  const rows = changeRows(before, after);
  const unchanged = rows.filter((row) => row.state === 'unchanged').length;
  const visible = showUnchanged ? rows : rows.filter((row) => row.state !== 'unchanged');
  const summary = before === null ? t('activities.change.created') : after === null ? t('activities.change.deleted') : visible.length ? t('activities.change.edited') : t('activities.change.none');
  return (
    <Card title={t('activities.change.title')}>
      <p>{summary} {t('activities.change.secretsRedacted')}</p>
      {unchanged ? <Checkbox label={t('activities.change.showUnchanged', { count: unchanged })} checked={showUnchanged} onCheckedChange={setShowUnchanged} /> : null}
      {visible.length ? <Table columns={columnsFor(schema)} rows={visible} rowKey={(row) => row.field} caption={t('activities.change.caption')} /> : null}
    </Card>
  );
}
