import { t } from '../../../app/i18n/messages';
import { Table, type TableColumn } from '../../../ui';

type Row = Record<string, unknown>;

const shown = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** The first rows of a sample, as the file has them, so the mapping can be checked against real values. */
export function SamplePreview({ columns, rows }: { columns: string[]; rows: Row[] }) {
  const tableColumns: TableColumn<Row>[] = columns.map((column) => ({ id: column, header: column, cell: (row) => shown(row[column]) }));
  return (
    <section className="custom-adapter-preview" aria-label={t('customAdapters.preview.title')}>
      <h3>{t('customAdapters.preview.title')}</h3>
      <Table columns={tableColumns} rows={rows} rowKey={(_, index) => index} caption={t('customAdapters.preview.title')} />
    </section>
  );
}
