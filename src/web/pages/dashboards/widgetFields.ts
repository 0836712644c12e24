import type { WidgetKind } from './widgetCatalogue';

export type WidgetSetting = 'inventory' | 'query' | 'saved_queries' | 'field' | 'days' | 'limit' | 'sources';

// Which settings each kind reads on the server (src/server/dashboards/*Widgets.ts); the form shows only those.
const settingsByKind: Record<WidgetKind, WidgetSetting[]> = {
  connection_statuses: [],
  device_discovery: ['sources'],
  query_historical: ['inventory', 'query', 'saved_queries', 'days'],
  time_differential: ['inventory', 'query', 'days'],
  totals: ['days'],
  certificate_expiry: [],
  group_by: ['inventory', 'field', 'query', 'limit'],
  lowest_security_score: ['query', 'limit'],
  security_score: ['query'],
  query_trend: ['inventory', 'saved_queries', 'query', 'days'],
  trend: ['days'],
  vulnerability_by_os: ['query', 'limit'],
  vulnerability_by_severity: [],
  vulnerability_by_software: ['limit'],
  vulnerability_by_source: ['sources', 'limit'],
  discovery_info: [],
  next_discoveries: ['limit'],
};

/** The settings the widget form shows for a kind. */
export const widgetSettingsFor = (kind: WidgetKind): WidgetSetting[] => settingsByKind[kind];

/** What a widget kind shows, for the form's help text. */
export const widgetKindHelp: Record<WidgetKind, string> = {
  connection_statuses: 'Connections by the state of their last fetch, with the disabled ones apart.',
  device_discovery: 'Devices each source (connection or adapter) reports in the latest snapshot, beside the unique devices after correlation.',
  query_historical: 'One query counted in every snapshot of the period.',
  time_differential: 'A query now and in the snapshot the chosen days older, with the records added and removed.',
  totals: 'Devices and users now, beside the snapshot the chosen days older.',
  certificate_expiry: 'Certificates by how soon they expire.',
  group_by: 'Records counted per value of a field.',
  lowest_security_score: 'The devices with the lowest security scores.',
  security_score: 'The average security score, how many devices are scored and how many score below 50.',
  query_trend: 'One line per saved query across the snapshots of the period.',
  trend: 'The size of every inventory across the snapshots of the period.',
  vulnerability_by_os: 'Vulnerability findings on devices per operating system.',
  vulnerability_by_severity: 'Vulnerabilities per severity (or CVSS band).',
  vulnerability_by_software: 'Vulnerabilities per affected software.',
  vulnerability_by_source: 'Vulnerability findings per reporting source (connection or adapter).',
  discovery_info: 'The latest discovery: state, times, failed connections and what it published.',
  next_discoveries: 'The next start times of the discovery schedule.',
};
