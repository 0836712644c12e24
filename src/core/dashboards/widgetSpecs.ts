import { chartDatePattern, chartDateTimePattern } from '../dates/index.js';
import { areSeverities, severityScale, type ChartTheme } from './severityScale.js';
import type { WidgetDataResponse } from './widgetData.js';

export type { ChartTheme };
/** A Vega-Lite specification (kept structural here so this module does not import the vega stack). */
export type VegaLiteSpec = Record<string, unknown>;

// Colours per theme: text and grid follow the console's tokens; the category palette stays readable on both.
const themeColours = {
  light: { text: '#1f2933', muted: '#52606d', grid: '#e4e7eb', palette: ['#2563eb', '#16a34a', '#f59e0b', '#dc2626', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#ea580c', '#475569'] },
  dark: { text: '#e4e7eb', muted: '#9aa5b1', grid: '#323f4b', palette: ['#60a5fa', '#4ade80', '#fbbf24', '#f87171', '#a78bfa', '#22d3ee', '#f472b6', '#a3e635', '#fb923c', '#94a3b8'] },
} as const;

/** The Vega-Lite config of a theme: transparent background, the theme's text and grid colours. */
export function themeConfig(theme: ChartTheme): VegaLiteSpec {
  const colours = themeColours[theme];
  return {
    background: 'transparent',
    view: { stroke: null },
    font: 'inherit',
    // Long labels are shortened with an ellipsis (the tooltip has them whole) rather than pushed out of the tile.
    axis: { labelColor: colours.muted, titleColor: colours.text, gridColor: colours.grid, domainColor: colours.grid, tickColor: colours.grid, labelLimit: 140, labelOverlap: true },
    legend: { labelColor: colours.muted, titleColor: colours.text, labelLimit: 140 },
    range: { category: [...colours.palette] },
    bar: { color: colours.palette[0] },
    line: { color: colours.palette[0] },
  };
}

const base = (theme: ChartTheme) => ({ $schema: 'https://vega.github.io/schema/vega-lite/v6.json', width: 'container', height: 'container', autosize: { type: 'fit', contains: 'padding' }, config: themeConfig(theme) });

/** The colour of a nominal field: the severity scale when every value is a severity, the theme's palette otherwise. */
function colourScale(values: readonly unknown[], theme: ChartTheme): { scale?: { domain: string[]; range: string[] } } {
  return areSeverities([...new Set(values)]) ? { scale: severityScale(theme) } : {};
}

const localDay = (value: unknown) => new Date(String(value)).toDateString();

/**
 * The time axis of a trend. Snapshots on different days: one tick per day, labelled with the date (ticks between days
 * would repeat a date). Several on one day: the ticks carry times, and the date too when the trend spans days.
 */
export function timeAxis(dates: readonly unknown[]): Record<string, unknown> {
  const instants = new Set(dates.map(String));
  const days = new Set(dates.map(localDay));
  if (days.size === instants.size) return { format: chartDatePattern, tickCount: { interval: 'day', step: 1 } };
  return { format: days.size === 1 ? '%H:%M' : chartDateTimePattern };
}

/**
 * A donut: the slices, and each slice's value written on it (slices under 5 % of the whole stay unlabelled, they
 * would not hold the text; the legend and the tooltip give theirs). Radii follow the tile's size.
 */
function donut(values: Record<string, unknown>[], theme: ChartTheme): VegaLiteSpec {
  const outer = 'min(width, height) / 2';
  return {
    ...base(theme), data: { values },
    transform: [{ joinaggregate: [{ op: 'sum', field: 'value', as: 'total' }] }],
    encoding: {
      theta: { field: 'value', type: 'quantitative', stack: true },
      color: { field: 'label', type: 'nominal', title: null, sort: { field: 'value', order: 'descending' }, ...colourScale(values.map((row) => row.label), theme) },
      order: { field: 'value', sort: 'descending' },
      tooltip: [{ field: 'label', title: 'Value' }, { field: 'value', title: 'Count', format: ',' }],
    },
    layer: [
      { mark: { type: 'arc', innerRadius: { expr: `${outer} * 0.5` }, outerRadius: { expr: outer }, cursor: 'pointer' } },
      {
        transform: [{ filter: 'datum.value / datum.total >= 0.05' }],
        mark: { type: 'text', radius: { expr: `${outer} * 0.75` }, fontWeight: 600, fill: '#ffffff', cursor: 'pointer' },
        encoding: { text: { field: 'value', type: 'quantitative', format: ',' }, color: { value: '#ffffff' } },
      },
    ],
  };
}

/**
 * The Vega-Lite specification that draws a widget's result, or null when it is not a chart (numbers, tables and
 * facts are plain HTML). Rows keep their `query`, so a click on a bar, slice or point can open the inventory.
 */
export function vegaSpecFor(data: WidgetDataResponse, theme: ChartTheme): VegaLiteSpec | null {
  if (!data.rows.length) return null;
  const values = data.rows.map((row) => ({ ...row }));
  if (data.display === 'bar') {
    const severities = areSeverities(values.map((row) => row.label));
    return {
      ...base(theme), data: { values },
      mark: { type: 'bar', cursor: 'pointer', cornerRadiusEnd: 2 },
      encoding: {
        // Severities keep their own order (worst first); other bars are sorted by their value.
        y: { field: 'label', type: 'nominal', sort: severities ? severityScale(theme).domain : '-x', title: null },
        x: { field: 'value', type: 'quantitative', title: null, axis: { format: ',d', tickMinStep: 1 } },
        ...(severities ? { color: { field: 'label', type: 'nominal', legend: null, ...colourScale(values.map((row) => row.label), theme) } } : {}),
        tooltip: [{ field: 'label', title: 'Value' }, { field: 'value', title: 'Count', format: ',' }],
      },
    };
  }
  if (data.display === 'pie') return donut(values, theme);
  if (data.display === 'line') {
    return {
      ...base(theme), data: { values },
      mark: { type: 'line', point: { size: 60, cursor: 'pointer' } },
      encoding: {
        x: { field: 'date', type: 'temporal', title: null, axis: timeAxis(values.map((row) => row.date)) },
        y: { field: 'value', type: 'quantitative', title: null, axis: { format: ',d', tickMinStep: 1 } },
        color: { field: 'series', type: 'nominal', title: null, legend: { orient: 'bottom', direction: 'horizontal' }, ...colourScale(values.map((row) => row.series), theme) },
        tooltip: [{ field: 'series', title: 'Series' }, { field: 'date', type: 'temporal', title: 'Snapshot', format: chartDateTimePattern }, { field: 'value', title: 'Count', format: ',' }],
      },
    };
  }
  return null;
}

/** The inventory query of a clicked mark's datum, when it has one worth opening. */
export function queryOfDatum(datum: unknown): string | null {
  if (!datum || typeof datum !== 'object') return null;
  const query = (datum as { query?: unknown }).query;
  return typeof query === 'string' ? query : null;
}
