import { describe, expect, it } from 'vitest';
import { areSeverities, severityScale } from '../../src/core/dashboards/severityScale.js';
import { timeAxis, vegaSpecFor } from '../../src/core/dashboards/widgetSpecs.js';
import type { WidgetDataResponse } from '../../src/core/dashboards/widgetData.js';

const result = (kind: string, display: WidgetDataResponse['display'], rows: Record<string, unknown>[]): WidgetDataResponse => ({ kind, display, inventory: 'vulnerability', index_id: 3, rows });
const severities = [{ label: 'Low', value: 4 }, { label: 'Critical', value: 1 }, { label: 'High', value: 3 }];
type Encoded = { encoding: Record<string, { scale?: { domain: string[]; range: string[] }; sort?: unknown; axis?: Record<string, unknown> }> };

describe('the severity colours of charts', () => {
  it('are one scale, by convention: Critical dark red, High orange-red, Medium amber, Low blue', () => {
    const { domain, range } = severityScale('light');
    const colourOf = (name: string) => range[domain.indexOf(name)];
    expect(colourOf('Critical')).toBe('#7f1d1d');
    expect(colourOf('High')).toBe('#ea580c');
    expect(colourOf('Medium')).toBe('#f59e0b');
    expect(colourOf('Low')).toBe('#3b82f6');
    expect(severityScale('dark').domain).toEqual(domain);
  });

  it('colour a pie, a bar chart and a trend of severities the same, whichever severities a result holds', () => {
    const pie = vegaSpecFor(result('vulnerability_by_severity', 'pie', severities), 'light') as Encoded;
    const bar = vegaSpecFor(result('vulnerability_by_severity', 'bar', severities.slice(0, 2)), 'light') as Encoded;
    const line = vegaSpecFor(result('query_trend', 'line', [{ date: '2026-11-01T00:00:00Z', series: 'High', value: 2 }]), 'light') as Encoded;
    expect(pie.encoding.color!.scale).toEqual(severityScale('light'));
    expect(bar.encoding.color!.scale).toEqual(severityScale('light'));
    expect(line.encoding.color!.scale).toEqual(severityScale('light'));
    // Severity bars stand worst first, not by count.
    expect(bar.encoding.y!.sort).toEqual(severityScale('light').domain);
  });

  it('leave other categories to the theme palette', () => {
    expect(areSeverities(['Windows', 'High'])).toBe(false);
    expect(areSeverities([])).toBe(false);
    const pie = vegaSpecFor(result('group_by', 'pie', [{ label: 'Windows', value: 2 }]), 'light') as Encoded;
    expect(pie.encoding.color!.scale).toBeUndefined();
  });
});

describe('the donut', () => {
  it('writes each large enough slice\'s value on it', () => {
    const spec = vegaSpecFor(result('group_by', 'pie', severities), 'light') as { layer: { mark: { type: string }; encoding?: { text?: { field: string } }; transform?: { filter: string }[] }[] };
    expect(spec.layer.map((layer) => layer.mark.type)).toEqual(['arc', 'text']);
    expect(spec.layer[1]!.encoding!.text!.field).toBe('value');
    expect(spec.layer[1]!.transform![0]!.filter).toContain('datum.total');
  });
});

describe('the time axis of a trend', () => {
  it('puts one tick per day when every snapshot is on a day of its own', () => {
    expect(timeAxis(['2026-11-01T10:00:00Z', '2026-11-02T10:00:00Z', '2026-11-05T10:00:00Z'])).toEqual({ format: '%d %B %Y', tickCount: { interval: 'day', step: 1 } });
  });

  it('shows times when several snapshots fall on one day', () => {
    expect(timeAxis(['2026-11-01T10:00:00Z', '2026-11-01T10:30:00Z'])).toEqual({ format: '%H:%M' });
    expect(timeAxis(['2026-11-01T10:00:00Z', '2026-11-01T10:30:00Z', '2026-11-03T10:00:00Z'])).toEqual({ format: '%d %B %Y, %H:%M' });
  });
});
