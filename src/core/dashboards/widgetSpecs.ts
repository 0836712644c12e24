import { chartDatePattern, chartDateTimePattern } from '../dates/index.js';
import type { WidgetDataResponse } from './widgetData.js';

export type ChartTheme = 'light' | 'dark';
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
    axis: { labelColor: colours.muted, titleColor: colours.text, gridColor: colours.grid, domainColor: colours.grid, tickColor: colours.grid },
    legend: { labelColor: colours.muted, titleColor: colours.text },
    range: { category: [...colours.palette] },
    bar: { color: colours.palette[0] },
    line: { color: colours.palette[0] },
  };
}

const base = (theme: ChartTheme) => ({ $schema: 'https://vega.github.io/schema/vega-lite/v6.json', width: 'container', height: 'container', autosize: { type: 'fit', contains: 'padding' }, config: themeConfig(theme) });

/**
 * The Vega-Lite specification that draws a widget's result, or null when it is not a chart (numbers, tables and
 * facts are plain HTML). Rows keep their `query`, so a click on a bar, slice or point can open the inventory.
 */
export function vegaSpecFor(data: WidgetDataResponse, theme: ChartTheme): VegaLiteSpec | null {
  if (!data.rows.length) return null;
  const values = data.rows.map((row) => ({ ...row }));
  if (data.display === 'bar') {
    return {
      ...base(theme), data: { values },
      mark: { type: 'bar', cursor: 'pointer', cornerRadiusEnd: 2 },
      encoding: {
        y: { field: 'label', type: 'nominal', sort: '-x', title: null },
        x: { field: 'value', type: 'quantitative', title: null },
        tooltip: [{ field: 'label', title: 'Value' }, { field: 'value', title: 'Count', format: ',' }],
      },
    };
  }
  if (data.display === 'pie') {
    return {
      ...base(theme), data: { values },
      mark: { type: 'arc', innerRadius: 40, cursor: 'pointer' },
      encoding: {
        theta: { field: 'value', type: 'quantitative', stack: true },
        color: { field: 'label', type: 'nominal', title: null, sort: { field: 'value', order: 'descending' } },
        order: { field: 'value', sort: 'descending' },
        tooltip: [{ field: 'label', title: 'Value' }, { field: 'value', title: 'Count', format: ',' }],
      },
    };
  }
  if (data.display === 'line') {
    return {
      ...base(theme), data: { values },
      mark: { type: 'line', point: { size: 60, cursor: 'pointer' } },
      encoding: {
        x: { field: 'date', type: 'temporal', title: null, axis: { format: chartDatePattern } },
        y: { field: 'value', type: 'quantitative', title: null },
        color: { field: 'series', type: 'nominal', title: null },
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
