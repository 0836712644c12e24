import {
  avmSettingsKind, defaultAvmSettings, defaultVulnerabilityInventorySettings, vulnerabilityInventorySettingsKind,
  type AvmSettingsDocument, type VulnerabilityInventorySettings,
} from '../../avm/avmSettings.js';
import { defaultFeedDownloads, feedDownloadsKind, loadFeedDownloads, providerCompanyId, type FeedDownloadsDocument } from '../../avm/feedDownloads.js';
import type { AppContext } from '../../context.js';
import { nextRunsOf, scheduleProblem } from '../../jobs/scheduler.js';
import { loadSettingsDocument, saveSettingsDocument } from '../../settings/settingsStore.js';
import { fieldError, requireProvider } from '../errors.js';
import { callerOf, type RouteCatalogue } from '../routes.js';

/**
 * The two settings pages of the vulnerability management, one document per company each: the AVM configuration
 * (enrichments on or off, software matching and its mappings) and the vulnerability inventory configuration
 * (severity bands, sources left out, retention of fixed findings). Both take effect from the next discovery.
 */
export function registerAvmSettingsRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  routes.add({
    method: 'GET', url: '/configurations/avm-configuration', name: 'avm_configuration.read', summary: 'Which feeds enrich the vulnerabilities and how installed software is matched to CVEs',
    access: 'configurations.view_advancedconfiguration',
    handler: async (request) => loadSettingsDocument(db, callerOf(request).companyId, avmSettingsKind, defaultAvmSettings),
  });
  routes.add({
    method: 'PUT', url: '/configurations/avm-configuration', name: 'avm_configuration.update', summary: 'Change the enrichments and the software matching',
    access: 'configurations.change_advancedconfiguration', body: 'cartograph:settings/avm-configuration',
    handler: async (request) => {
      const body = request.body as AvmSettingsDocument;
      const document: AvmSettingsDocument = { ...defaultAvmSettings, ...body, cpe_mappings: body.cpe_mappings.map(({ software, cpe }) => ({ software: software.trim(), cpe })) };
      await saveSettingsDocument(db, callerOf(request).companyId, avmSettingsKind, document);
      return document;
    },
  });
  routes.add({
    method: 'GET', url: '/configurations/vulnerability-inventory-configuration', name: 'vulnerability_inventory_configuration.read',
    summary: 'Severity bands, sources and retention of the vulnerability inventory', access: 'avm.view_vulnerabilityenrichment',
    handler: async (request) => loadSettingsDocument(db, callerOf(request).companyId, vulnerabilityInventorySettingsKind, defaultVulnerabilityInventorySettings),
  });
  routes.add({
    method: 'PUT', url: '/configurations/vulnerability-inventory-configuration', name: 'vulnerability_inventory_configuration.update',
    summary: 'Change how the vulnerability inventory is built', access: 'avm.change_vulnerabilityenrichment', body: 'cartograph:settings/vulnerability-inventory-configuration',
    handler: async (request) => {
      const document = request.body as VulnerabilityInventorySettings;
      if (document.high_from_score >= document.critical_from_score) throw fieldError('high_from_score', 'High must start below Critical.');
      if (document.medium_from_score >= document.high_from_score) throw fieldError('medium_from_score', 'Medium must start below High.');
      await saveSettingsDocument(db, callerOf(request).companyId, vulnerabilityInventorySettingsKind, document);
      return document;
    },
  });

  const downloadsAnswer = (document: FeedDownloadsDocument) => ({ ...document, next_runs: nextRunsOf(document, 5) });
  routes.add({
    method: 'GET', url: '/configurations/avm-feed-downloads', name: 'avm_feed_downloads.read', summary: 'Where and when the vulnerability feeds are downloaded, with the next downloads',
    access: 'configurations.view_advancedconfiguration',
    handler: async () => downloadsAnswer(await loadFeedDownloads(db)),
  });
  routes.add({
    method: 'PUT', url: '/configurations/avm-feed-downloads', name: 'avm_feed_downloads.update', summary: 'Change where and when the vulnerability feeds are downloaded (provider company only)',
    access: 'configurations.change_advancedconfiguration', body: 'cartograph:settings/avm-feed-downloads',
    handler: async (request) => {
      // The feeds every company shares come from these addresses: only the provider company sets them.
      requireProvider(callerOf(request), 'The feeds are shared by every company: only the provider company sets their downloads.');
      const { next_runs: _ignored, ...body } = request.body as FeedDownloadsDocument & { next_runs?: unknown };
      const document: FeedDownloadsDocument = { ...defaultFeedDownloads, ...body };
      const problem = scheduleProblem(document);
      if (problem) throw fieldError(problem.field, problem.message);
      await saveSettingsDocument(db, (await providerCompanyId(db)) ?? callerOf(request).companyId, feedDownloadsKind, document);
      return downloadsAnswer(document);
    },
  });
}
