import { t } from '../../app/i18n/messages';
import { Card, EmptyState, Spinner } from '../../ui';
import { Markdown } from '../adapters/Markdown';
import { WidgetView } from '../dashboards/WidgetView';
import { countText, type PreviewSection, type ReportPreview } from './reportsApi';
// The chart's embed and tooltip styles (the console's CSP allows no inline styles).
import '../dashboards/dashboards.css';

function SectionPreview({ section }: { section: PreviewSection }) {
  if ('error' in section) return <p className="report-section__error" role="alert">{section.error}</p>;
  if ('blocks' in section) return <Markdown blocks={section.blocks} />;
  if ('data' in section) return <WidgetView title={section.title} data={section.data} />;
  return (
    <>
      <p className="report-preview__count">{t('reports.preview.rows', { shown: countText(section.rows.length), count: countText(section.count) })}</p>
      {section.report_rows < section.count ? (
        <p className="report-preview__count">{t('reports.preview.cut', { limit: countText(section.limit), shown: countText(section.report_rows), count: countText(section.count) })}</p>
      ) : null}
      <div className="report-preview__table">
        <table>
          <caption className="ui-visually-hidden">{section.title}</caption>
          <thead><tr>{section.columns.map((column) => <th key={column.field} scope="col">{column.label}</th>)}</tr></thead>
          <tbody>{section.rows.map((row, index) => <tr key={index}>{row.map((cell, at) => <td key={at}>{cell}</td>)}</tr>)}</tbody>
        </table>
      </div>
    </>
  );
}

/** The server's preview of the draft: each section's first rows, chart or text, or why it cannot be computed. */
export function ReportPreviewPane({ preview, pending, problem }: { preview: ReportPreview | undefined; pending: boolean; problem: string | null }) {
  return (
    <section className="report-preview" aria-label={t('reports.preview.title')} aria-busy={pending}>
      <h2 className="report-preview__title">{t('reports.preview.title')} {pending ? <Spinner size="small" label={t('reports.preview.computing')} /> : null}</h2>
      {problem ? <p className="report-section__error" role="alert">{problem}</p> : null}
      {preview && !preview.sections.length ? <EmptyState title={t('reports.preview.empty')} description={t('reports.preview.emptyHelp')} /> : null}
      {preview ? <p className="report-preview__snapshot">{t('reports.preview.snapshot', { id: preview.index_id })}</p> : null}
      {preview?.sections.map((section, index) => (
        <Card key={index} title={section.title} headingLevel={3} className="report-preview__section">
          <SectionPreview section={section} />
        </Card>
      ))}
    </section>
  );
}
