import { t } from '../../app/i18n/messages';
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
  get connection_statuses() { return t('dashboards.connectionsStateTheirLast'); },
  get device_discovery() { return t('dashboards.devicesEachSourceConnection'); },
  get query_historical() { return t('dashboards.oneQueryCountedEvery'); },
  get time_differential() { return t('dashboards.queryNowSnapshotChosen'); },
  get totals() { return t('dashboards.devicesUsersNowBeside'); },
  get certificate_expiry() { return t('dashboards.certificatesHowSoonThey'); },
  get group_by() { return t('dashboards.recordsCountedPerValue'); },
  get lowest_security_score() { return t('dashboards.devicesLowestSecurityScores'); },
  get security_score() { return t('dashboards.averageSecurityScoreHow'); },
  get query_trend() { return t('dashboards.oneLinePerSaved'); },
  get trend() { return t('dashboards.sizeEveryInventoryAcross'); },
  get vulnerability_by_os() { return t('dashboards.vulnerabilityFindingsDevicesPer'); },
  get vulnerability_by_severity() { return t('dashboards.vulnerabilitiesPerSeverityCvss'); },
  get vulnerability_by_software() { return t('dashboards.vulnerabilitiesPerAffectedSoftware'); },
  get vulnerability_by_source() { return t('dashboards.vulnerabilityFindingsPerReporting'); },
  get discovery_info() { return t('dashboards.latestDiscoveryStateTimes'); },
  get next_discoveries() { return t('dashboards.nextStartTimesDiscovery'); },
};
