import { t } from '../../app/i18n/messages';
import { lazy, Suspense } from 'react';
import { formatNumber } from '../../../core/format/numbers';
import { formatDate } from '../../../core/dates';
import { EmptyState, Spinner } from '../../ui';
import { inventoryLinkFor, type WidgetDataResponse } from './dashboardsApi';
import { useDocumentTheme } from './useDocumentTheme';
import { vegaSpecFor } from './widgetSpecs';

// The vega stack is a chunk of its own, fetched the first time a chart is drawn.
const VegaChart = lazy(() => import('./VegaChart').then((module) => ({ default: module.VegaChart })));

export type WidgetViewProps = {
  title: string;
  data: WidgetDataResponse;
  /** Opens the inventory behind a segment; defaults to following the inventory link in this window. */
  onOpenQuery?: (link: string) => void;
};

const formatValue = (value: unknown): string => {
  if (typeof value === 'number') return formatNumber(value, 1);
  if (Array.isArray(value)) return value.map(formatValue).join(', ');
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return formatDate(value);
  return value === null || value === undefined || value === '' ? '-' : String(value);
};

function openLink(link: string) {
  window.location.hash = link;
}

/** The body of a dashboard tile: a Vega-Lite chart, big numbers, a table or a list of facts, or why it is empty. */
export function WidgetView({ title, data, onOpenQuery = openLink }: WidgetViewProps) {
  const theme = useDocumentTheme();
  if (!data.rows.length) return <EmptyState title={t('dashboards.nothingShowYet')} description={data.message ?? t('dashboards.noData')} />;
  const linkFor = (row: Record<string, unknown>) => (typeof row.query === 'string' ? inventoryLinkFor(String(row.inventory ?? data.inventory), row.query) : null);
  const spec = vegaSpecFor(data, theme);
  if (spec) {
    return (
      <>
        <Suspense fallback={<Spinner label={t('dashboards.drawingTheChart')} />}>
          <VegaChart spec={spec} label={title} onSegment={(query) => {
            const link = inventoryLinkFor(data.inventory, query);
            if (link) onOpenQuery(link);
          }} />
        </Suspense>
        {/* The chart's figures as text, for screen readers (the SVG itself is one labelled image). */}
        <ul className="ui-visually-hidden">
          {data.rows.map((row, index) => {
            const link = linkFor(row);
            const text = `${String(row.series ?? row.label)}${row.date ? ` ${formatValue(row.date)}` : ''}: ${formatValue(row.value)}`;
            return <li key={index}>{link && row.query ? <a href={`#${link}`}>{text}</a> : text}</li>;
          })}
        </ul>
      </>
    );
  }
  if (data.display === 'number') {
    return (
      <ul className="dashboard-numbers">
        {data.rows.map((row, index) => {
          const link = linkFor(row);
          const value = <span className="dashboard-number-value">{formatValue(row.value)}{data.kind === 'score' && row.value !== null ? '%' : ''}</span>;
          const change = typeof row.previous === 'number' && typeof row.value === 'number' ? row.value - row.previous : null;
          return (
            <li key={index}>
              {link ? <a href={`#${link}`}>{value}</a> : value}
              <span className="dashboard-number-label">{String(row.label)}</span>
              {change !== null && <span className="dashboard-number-change">{change === 0 ? t('dashboards.noChange') : `${change > 0 ? '+' : ''}${formatNumber(change, 1)}`}</span>}
            </li>
          );
        })}
      </ul>
    );
  }
  if (data.display === 'table') {
    const columns = data.columns ?? [];
    return (
      <table className="dashboard-table">
        <caption className="ui-visually-hidden">{title}</caption>
        <thead><tr>{columns.map((column) => <th key={column} scope="col">{column}</th>)}</tr></thead>
        <tbody>
          {data.rows.map((row, index) => {
            const link = linkFor(row);
            return (
              <tr key={index}>
                {columns.map((column, columnIndex) => (
                  <td key={column}>{columnIndex === 0 && link ? <a href={`#${link}`}>{formatValue(row[column])}</a> : formatValue(row[column])}</td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    );
  }
  return (
    <dl className="dashboard-facts">
      {data.rows.map((row, index) => (
        <div key={index}><dt>{String(row.label)}</dt><dd>{formatValue(row.value)}</dd></div>
      ))}
    </dl>
  );
}
