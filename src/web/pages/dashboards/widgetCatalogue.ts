import { t } from '../../app/i18n/messages';
// Types and constants of dashboards, widgets and charts that need no browser API (shared with unit tests).
import type { WidgetDataResponse } from '../../../core/dashboards/widgetData';

export type { WidgetDataResponse };

export type LayoutTile = { item: string; x: number; y: number; w: number; h: number };
export type DashboardResponse = {
  id: number; name: string; description: string; is_public: boolean; groups: number[]; hr_groups: { id: number; name: string }[];
  is_default: boolean; position: number; layout: LayoutTile[]; created_by: number | null;
};
export type DashboardFormData = Pick<DashboardResponse, 'name' | 'description' | 'is_public' | 'groups'> & Partial<Pick<DashboardResponse, 'is_default' | 'position' | 'layout'>>;

export const widgetKinds = [
  'connection_statuses', 'device_discovery', 'query_historical', 'time_differential', 'totals', 'certificate_expiry', 'group_by', 'lowest_security_score',
  'security_score', 'query_trend', 'trend', 'vulnerability_by_os', 'vulnerability_by_severity', 'vulnerability_by_software', 'vulnerability_by_source',
  'discovery_info', 'next_discoveries',
] as const;
export type WidgetKind = (typeof widgetKinds)[number];
export type Inventory = 'device' | 'user' | 'application' | 'vulnerability' | 'certificate' | 'service' | 'license';
/** What a source-grouped widget counts per: each connection (tenants, domains, exports apart) or each adapter. */
export type SourceGrouping = 'connection' | 'adapter';
export type WidgetFormData = {
  name: string; dashboard: number; kind: WidgetKind; inventory: Inventory; query: string; saved_queries: number[]; field: string; days: number; limit: number; sources?: SourceGrouping;
};
export type WidgetResponse = WidgetFormData & { id: number };
export type ChartKind = 'score' | 'number' | 'table';
export type ChartFormData = {
  name: string; description: string; dashboard: number; kind: ChartKind; inventory: Inventory; query: string; group_by_query: number | null; group_by_data: string; fields: string[]; limit: number;
};
export type ChartResponse = ChartFormData & { id: number; dashboard_name: string; group_by_query_name: string | null };

export type DashboardTileResponse = { item: string; id: number; type: 'chart' | 'widget'; name: string; data?: WidgetDataResponse; error?: unknown };
export type DashboardDataResponse = { id: number; computed_at: string; tiles: DashboardTileResponse[] };

/** Human names of the widget kinds, for the kind picker and the widget list. */
export const widgetKindLabels: Record<WidgetKind, string> = {
  get connection_statuses() { return t('dashboards.connectionStatuses'); }, get device_discovery() { return t('dashboards.deviceDiscovery'); }, get query_historical() { return t('dashboards.queryBasedHistorical'); }, get time_differential() { return t('dashboards.timeDifferential'); },
  get totals() { return t('dashboards.totalsDevicesUsers'); }, get certificate_expiry() { return t('dashboards.certificateExpiryStatus'); }, get group_by() { return t('dashboards.groupBy'); }, get lowest_security_score() { return t('dashboards.lowestSecurityScoreDevices'); },
  get security_score() { return t('dashboards.securityScore'); }, get query_trend() { return t('dashboards.queryTrend'); }, get trend() { return t('dashboards.trend'); }, get vulnerability_by_os() { return t('dashboards.vulnerabilitiesByOs'); }, get vulnerability_by_severity() { return t('dashboards.vulnerabilitiesBySeverity'); },
  get vulnerability_by_software() { return t('dashboards.vulnerabilitiesBySoftware'); }, get vulnerability_by_source() { return t('dashboards.vulnerabilitiesBySource'); }, get discovery_info() { return t('dashboards.discoveryInfo'); }, get next_discoveries() { return t('dashboards.nextDiscoveries'); },
};

/** The inventory page that lists the records behind a segment. */
export function inventoryLinkFor(inventory: string, query: string): string | null {
  const pages: Record<string, string> = { device: '/device-inventory', user: '/user-inventory', certificate: '/certificate-inventory' };
  const page = pages[inventory] ?? null;
  return page && `${page}?query=${encodeURIComponent(query)}`;
}
