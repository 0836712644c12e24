import { Invalid } from '../errors.js';
import { queryHistorical, queryTrend, timeDifferential, trend } from './historyWidgets.js';
import { certificateExpiry, deviceDiscovery, groupBy, lowestSecurityScore, securityScore, totals } from './inventoryWidgets.js';
import { connectionStatuses, discoveryInfo, nextDiscoveries } from './operationsWidgets.js';
import { vulnerabilityByOs, vulnerabilityBySeverity, vulnerabilityBySoftware, vulnerabilityBySource } from './vulnerabilityWidgets.js';
import type { WidgetContext, WidgetData, WidgetSettings } from './widgetData.js';

type Computation = (context: WidgetContext, settings: WidgetSettings) => Promise<WidgetData>;

/** Every widget kind of the catalogue (spec §2 "Dashboard") and the function that computes it. */
export const widgetComputations: Record<string, Computation> = {
  connection_statuses: connectionStatuses,
  device_discovery: deviceDiscovery,
  query_historical: queryHistorical,
  time_differential: timeDifferential,
  totals,
  certificate_expiry: certificateExpiry,
  group_by: groupBy,
  lowest_security_score: lowestSecurityScore,
  security_score: securityScore,
  query_trend: queryTrend,
  trend,
  vulnerability_by_os: vulnerabilityByOs,
  vulnerability_by_severity: vulnerabilityBySeverity,
  vulnerability_by_software: vulnerabilityBySoftware,
  vulnerability_by_source: vulnerabilityBySource,
  discovery_info: discoveryInfo,
  next_discoveries: nextDiscoveries,
};

export const widgetDefaults: Omit<WidgetSettings, 'kind'> = { inventory: 'device', query: '', saved_queries: [], field: '', days: 30, limit: 10, sources: 'adapter' };

/** The settings a widget's document asks for, over the schema defaults. */
export function widgetSettingsOf(document: Record<string, unknown>): WidgetSettings {
  return { ...widgetDefaults, ...(document as Partial<WidgetSettings>), kind: String(document.kind) };
}

/** Field errors for settings a kind needs but the document lacks (the schema alone cannot say which kind needs what). */
export function widgetSettingsErrors(settings: WidgetSettings): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (settings.kind === 'group_by' && !settings.field) errors.field = ['A group-by widget needs the field to group by.'];
  if (settings.kind === 'query_trend' && !settings.saved_queries.length && !settings.query.trim()) errors.saved_queries = ['A query-trend widget needs saved queries or a query.'];
  return errors;
}

/** Computes one widget from the company's snapshots. */
export async function computeWidget(context: WidgetContext, settings: WidgetSettings): Promise<WidgetData> {
  const computation = widgetComputations[settings.kind];
  if (!computation) throw new Invalid({ kind: ['This is not a valid choice.'] });
  return computation(context, settings);
}
