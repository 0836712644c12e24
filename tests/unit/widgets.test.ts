import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/core/query/index.js';
import { widgetComputations } from '../../src/server/dashboards/computeWidget.js';
import { equalsQuery, missingQuery, compareQuery } from '../../src/server/dashboards/segmentQueries.js';
import { andQueries } from '../../src/server/dashboards/snapshotScope.js';
import { inventoryLinkFor, widgetKindLabels, widgetKinds, type WidgetDataResponse } from '../../src/web/pages/dashboards/widgetCatalogue.js';
import { completeLayout, firstFreeSpot, readingOrder, resizeTile, swapTiles } from '../../src/web/pages/dashboards/layout.js';
import { widgetKindHelp, widgetSettingsFor } from '../../src/web/pages/dashboards/widgetFields.js';
import { queryOfDatum, themeConfig, vegaSpecFor } from '../../src/web/pages/dashboards/widgetSpecs.js';
import widgetSchema from '../../schemas/entities/widget.json' with { type: 'json' };

const result = (display: WidgetDataResponse['display'], rows: Record<string, unknown>[]): WidgetDataResponse => ({ kind: 'group_by', display, inventory: 'device', index_id: 3, rows });

describe('the widget catalogue', () => {
  it('is the same list of kinds in the schema, the server computations and the console', () => {
    const schemaKinds = widgetSchema.properties.kind.enum;
    expect([...widgetKinds].sort()).toEqual([...schemaKinds].sort());
    expect(Object.keys(widgetComputations).sort()).toEqual([...schemaKinds].sort());
    for (const kind of widgetKinds) {
      expect(widgetKindLabels[kind], kind).toEqual(expect.any(String));
      expect(widgetKindHelp[kind], kind).toEqual(expect.any(String));
      expect(Array.isArray(widgetSettingsFor(kind))).toBe(true);
    }
  });

  it('asks a group-by widget for its field and a query trend for its saved queries', () => {
    expect(widgetSettingsFor('group_by')).toContain('field');
    expect(widgetSettingsFor('query_trend')).toContain('saved_queries');
    expect(widgetSettingsFor('connection_statuses')).toEqual([]);
  });
});

describe('segment queries', () => {
  it('quote values so spaces, quotes and keywords stay one literal that parses back', () => {
    for (const value of ['Windows', 'Mac OS X', 'say "hi"', 'AND', '42']) {
      const text = equalsQuery('OS.Type', value);
      expect(parseQuery(text)).toMatchObject({ kind: 'comparison', field: 'OS.Type', operator: '=', value: { kind: 'text', text: value } });
    }
    expect(missingQuery('OS.Type')).toBe('NOT OS.Type = *');
    expect(compareQuery('CvssScore', '>=', 7)).toBe('CvssScore >= 7');
  });

  it('join query texts with AND, adding parentheses only around an OR', () => {
    expect(andQueries('', 'OS.Type = Windows', null)).toBe('OS.Type = Windows');
    expect(andQueries('A = 1 OR B = 2', 'C = 3')).toBe('(A = 1 OR B = 2) AND C = 3');
    expect(andQueries('Query is 4', 'NOT Groups = edr')).toBe('Query is 4 AND NOT Groups = edr');
  });
});

describe('the Vega-Lite specifications of widget results', () => {
  it('draw bars sorted by value with the count in the tooltip', () => {
    const spec = vegaSpecFor(result('bar', [{ label: 'crowdstrike', value: 4, query: 'Adapters = "crowdstrike"' }]), 'light');
    expect(spec).toMatchObject({ mark: { type: 'bar' }, encoding: { y: { field: 'label', sort: '-x' }, x: { field: 'value', type: 'quantitative' } }, data: { values: [{ label: 'crowdstrike', value: 4 }] } });
  });

  it('draw slices for a pie and one line per series over snapshot dates', () => {
    expect(vegaSpecFor(result('pie', [{ label: 'Windows', value: 2 }]), 'light')).toMatchObject({ layer: [{ mark: { type: 'arc' } }, { mark: { type: 'text' } }], encoding: { theta: { field: 'value' }, color: { field: 'label' } } });
    expect(vegaSpecFor(result('line', [{ date: '2026-11-01T00:00:00Z', series: 'Devices', value: 9 }]), 'light')).toMatchObject({ mark: { type: 'line' }, encoding: { x: { field: 'date', type: 'temporal' }, color: { field: 'series' } } });
  });

  it('leave numbers, tables, facts and empty results to HTML', () => {
    expect(vegaSpecFor(result('number', [{ label: 'Devices', value: 5 }]), 'light')).toBeNull();
    expect(vegaSpecFor(result('table', [{ Hostname: 'a' }]), 'light')).toBeNull();
    expect(vegaSpecFor(result('bar', []), 'light')).toBeNull();
  });

  it('follow the theme with their text colours and a transparent background', () => {
    const light = themeConfig('light');
    const dark = themeConfig('dark');
    expect(light.background).toBe('transparent');
    expect((light.axis as { labelColor: string }).labelColor).not.toBe((dark.axis as { labelColor: string }).labelColor);
    expect((vegaSpecFor(result('bar', [{ label: 'x', value: 1 }]), 'dark') as { config: unknown }).config).toEqual(dark);
  });

  it('open the inventory filtered by the clicked segment', () => {
    expect(queryOfDatum({ label: 'Windows', value: 2, query: 'OS.Type = "Windows"' })).toBe('OS.Type = "Windows"');
    expect(queryOfDatum({ label: 'Unique devices', value: 5 })).toBeNull();
    expect(queryOfDatum(null)).toBeNull();
    expect(inventoryLinkFor('device', 'OS.Type = "Windows"')).toBe('/device-inventory?query=OS.Type%20%3D%20%22Windows%22');
    expect(inventoryLinkFor('user', '')).toBe('/user-inventory?query=');
    expect(inventoryLinkFor('certificate', 'NotAfter < "x"')).toBe('/certificate-inventory?query=NotAfter%20%3C%20%22x%22');
    expect(inventoryLinkFor('license', '')).toBeNull();
  });
});

describe('the dashboard layout', () => {
  const tile = (item: string, x: number, y: number, w = 6, h = 4) => ({ item, x, y, w, h });

  it('keeps stored tiles of existing items and places new items in the first free spot', () => {
    const layout = completeLayout([tile('widget:1', 0, 0), tile('widget:9', 6, 0)], ['widget:1', 'widget:2', 'chart:3']);
    expect(layout).toEqual([tile('widget:1', 0, 0), tile('widget:2', 6, 0), tile('chart:3', 0, 4)]);
  });

  it('clamps stored tiles into the 12-column grid', () => {
    expect(completeLayout([{ item: 'widget:1', x: 10, y: -1, w: 20, h: 0 }], ['widget:1'])).toEqual([{ item: 'widget:1', x: 0, y: 0, w: 12, h: 1 }]);
  });

  it('swaps two tiles dropped on each other and keeps their sizes', () => {
    const swapped = swapTiles([tile('a', 0, 0, 4, 3), tile('b', 4, 0, 8, 5)], 'a', 'b');
    expect(swapped).toEqual([tile('a', 4, 0, 4, 3), { item: 'b', x: 0, y: 0, w: 8, h: 5 }]);
    expect(swapTiles([tile('a', 0, 0)], 'a', 'missing')).toEqual([tile('a', 0, 0)]);
  });

  it('resizes within the grid and lists tiles in reading order', () => {
    expect(resizeTile([tile('a', 8, 0, 4, 4)], 'a', 6, 0)).toEqual([tile('a', 6, 0, 6, 1)]);
    expect(readingOrder([tile('c', 0, 4), tile('b', 6, 0), tile('a', 0, 0)]).map((entry) => entry.item)).toEqual(['a', 'b', 'c']);
    expect(firstFreeSpot([tile('a', 0, 0, 12, 2)], 6, 1)).toEqual({ x: 0, y: 2 });
  });
});
