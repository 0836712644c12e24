import { statfs } from 'node:fs/promises';
import { cpus, freemem, loadavg, totalmem, uptime } from 'node:os';
import { product } from '../../../core/product.js';
import type { AppContext } from '../../context.js';
import { loadDiscoverySettings } from '../../discovery/settings.js';
import { entityFieldMap, prefixedFieldMap, specificFieldMap, type FieldMap } from '../../inventory/fieldMaps.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { readableSnapshot } from '../../inventory/snapshots.js';

// Everything the open-source edition ships; the console checks these names with has-module-permission.
export const licenseModules = [
  'asset_inventory', 'device_inventory', 'user_inventory', 'software_inventory', 'service_inventory', 'certificate_inventory',
  'vulnerability_management', 'license_inventory', 'dashboards', 'reports', 'action_center', 'security_manager', 'multi_company',
];

/**
 * What the caller's company uses of what a license could limit. The open-source edition limits none of them
 * (`limits` all null); the counts say what is in use. Devices are those of the latest published snapshot.
 */
async function licenseUsage(context: AppContext, companyId: number) {
  const [usage] = await context.db.query<{ devices: number | null; users: number; adapters: number; connections: number }>(
    `select
       (select (progress->'assets'->>'device')::int from discoveries where company_id = $1 and status = 'done' order by id desc limit 1) as devices,
       (select count(*)::int from users where company_id = $1) as users,
       (select count(distinct adapter)::int from connections where company_id = $1) as adapters,
       (select count(*)::int from connections where company_id = $1) as connections`,
    [companyId],
  );
  return { ...usage, devices: usage.devices ?? 0 };
}

/** Live readings of the machine and the process: the system-information page and its polling. */
async function systemReadings(context: AppContext) {
  const processors = cpus();
  const disk = await statfs(context.config.dataDir).catch(() => null);
  const [{ version: databaseVersion, size: databaseSize }] = await context.db.query<{ version: string; size: number }>(
    'select version() as version, pg_database_size(current_database())::float8 as size',
  );
  return {
    cpu: { model: processors[0]?.model ?? 'unknown', cores: processors.length, load_average: loadavg() },
    memory: { total: totalmem(), free: freemem(), used: totalmem() - freemem(), process_rss: process.memoryUsage().rss },
    disk: disk ? { total: disk.blocks * disk.bsize, free: disk.bavail * disk.bsize } : null,
    uptime: { system_seconds: Math.round(uptime()), process_seconds: Math.round(process.uptime()) },
    versions: { cartograph: context.version, node: process.versions.node },
    database: { engine: context.db.engine, version: databaseVersion, size_bytes: Number(databaseSize) },
  };
}

/** Read-only configuration the console loads at start-up (spec §7). */
export function registerConfigurationRoutes(routes: RouteCatalogue, context: AppContext): void {
  routes.add({
    method: 'GET', url: '/configurations/license', name: 'configurations.license', summary: 'Edition and licensed modules', access: 'authenticated',
    handler: async (request) => {
      const caller = callerOf(request);
      const [company] = await context.db.query<{ name: string }>('select name from companies where id = $1', [caller.companyId]);
      const license = { edition: 'open-source', licensee: company.name, modules: licenseModules, max_assets: null, expires_at: null };
      // Every signed-in user loads the modules at start-up; what the company holds is for the license page's readers only.
      if (!caller.permissions.has('configurations.view_licenseconfiguration')) return license;
      return { ...license, limits: { devices: null, users: null, adapters: null, connections: null }, usage: await licenseUsage(context, caller.companyId) };
    },
  });
  routes.add({
    method: 'GET', url: '/configurations/company', name: 'configurations.company', summary: "The caller's company configuration", access: 'authenticated',
    handler: async (request) => {
      const caller = callerOf(request);
      const [company] = await context.db.query<{ id: number; name: string; is_constant: boolean }>('select id, name, is_constant from companies where id = $1', [caller.companyId]);
      const domains = await context.db.query<{ domain: string }>('select domain from domains where company_id = $1 order by is_primary desc, id', [caller.companyId]);
      return {
        company_id: company.id,
        name: company.name,
        is_provider: company.is_constant,
        domains: domains.map((row) => row.domain),
        password_expiry_days: context.config.passwordExpiryDays,
        access_token_ttl_seconds: context.config.accessTokenTtlSeconds,
      };
    },
  });
  // Field maps per snapshot: computing the adapters' Specifics keys reads the whole snapshot once.
  const specificsCache = new Map<string, Promise<FieldMap>>();
  const specificsOf = (discoveryId: number | null, entity: string) => {
    const key = `${discoveryId}:${entity}`;
    if (specificsCache.size > 200) specificsCache.clear();
    if (!specificsCache.has(key)) specificsCache.set(key, specificFieldMap(context.db, discoveryId, entity));
    return specificsCache.get(key)!;
  };
  routes.add({
    method: 'GET', url: '/configurations/discovery', name: 'configurations.discovery', summary: 'Field maps of every inventory and the source precedence',
    access: 'authenticated',
    handler: async (request) => {
      const discoveryId = (await readableSnapshot(context.db, callerOf(request).companyId))?.id ?? null;
      const settings = await loadDiscoverySettings(context.db, callerOf(request).companyId, context.adapters.catalogue);
      return {
        log_level: context.config.logLevel,
        ordering: settings.ordering.byField,
        default_source_order: settings.ordering.fallback,
        // Devices reach their software and vulnerabilities through `Software.*` and `Vulnerability.*`, and back through `Device.*`.
        field_map: {
          ...entityFieldMap('cartograph:entities/device', product.slug), ...(await specificsOf(discoveryId, 'device')),
          ...prefixedFieldMap('Software.', entityFieldMap('cartograph:entities/software', product.slug)), ...prefixedFieldMap('Vulnerability.', entityFieldMap('cartograph:entities/vulnerability', product.slug)),
          ...prefixedFieldMap('Service.', entityFieldMap('cartograph:entities/service', product.slug)),
          ...prefixedFieldMap('Certificate.', entityFieldMap('cartograph:entities/certificate', product.slug)),
        },
        user_field_map: { ...entityFieldMap('cartograph:entities/inventory-user', product.slug), ...(await specificsOf(discoveryId, 'user')) },
        vulnerability_field_map: { ...entityFieldMap('cartograph:entities/vulnerability', product.slug), ...prefixedFieldMap('Device.', entityFieldMap('cartograph:entities/device', product.slug)) },
        application_field_map: { ...entityFieldMap('cartograph:entities/software', product.slug), ...prefixedFieldMap('Device.', entityFieldMap('cartograph:entities/device', product.slug)) },
        certificate_field_map: { ...entityFieldMap('cartograph:entities/certificate', product.slug), ...prefixedFieldMap('Device.', entityFieldMap('cartograph:entities/device', product.slug)) },
        service_field_map: { ...entityFieldMap('cartograph:entities/service', product.slug), ...prefixedFieldMap('Device.', entityFieldMap('cartograph:entities/device', product.slug)) },
        license_field_map: entityFieldMap('cartograph:entities/license', product.slug),
      };
    },
  });
  routes.add({
    method: 'GET', url: '/configurations/system', name: 'configurations.system', summary: 'CPU, memory, disk, uptime, versions and database engine',
    access: 'users.view_system_information', handler: () => systemReadings(context),
  });
}
