import { describe, expect, it } from 'vitest';
import { builtinGroupPermissions, permissionCatalogue } from '../../src/server/identity/permissionCatalogue.js';

// Every permission string of the console spec (§6) and of the route table (routes.md).
const specPermissions = [
  'activities.view_activity', 'activities.view_system_log', 'adapters.view_connection', 'adapters.add_connection', 'adapters.change_connection',
  'users.view_avm_vulnerabilities', 'users.view_certificates', 'users.view_certificate_detail', 'queries.view_query',
  'certificates.view_customcertificate', 'certificates.add_customcertificate', 'certificates.change_customcertificate', 'users.view_devices',
  'users.view_device_detail', 'devices.view_tag', 'devices.change_tag', 'devices.view_devicerelation', 'users.view_device_merge_recommendation',
  'licenses.view_license', 'users.view_services', 'users.view_service_detail', 'users.view_applications', 'users.view_application_detail',
  'appinventory.view_group', 'appinventory.change_group', 'users.view_user_inventory', 'users.view_user_inventory_detail', 'users.view_user',
  'users.add_user', 'users.change_user', 'auth.view_group', 'auth.add_group', 'auth.change_group', 'companies.view_company',
  'companies.change_company', 'connectors.view_connector', 'connectors.add_connector', 'connectors.change_connector', 'customs.view_data',
  'customs.add_data', 'customs.change_data', 'customs.upload_custom_data_file', 'customs.upload_custom_fields_file',
  'configurations.view_smtpconfiguration', 'configurations.view_ldapconfiguration', 'configurations.change_ldapconfiguration',
  'configurations.view_syslogconfiguration', 'configurations.view_discoverysettings', 'configurations.view_companysettings',
  'users.view_system_information', 'configurations.view_advancedconfiguration', 'avm.view_vulnerabilityenrichment',
  'dashboards.view_dashboard', 'dashboards.add_dashboard', 'dashboards.change_dashboard', 'dashboards.add_chart', 'dashboards.change_chart',
  'discoveries.view_discovery', 'discoveries.start_discovery', 'workflows.view_workflow', 'workflows.add_workflow', 'workflows.change_workflow',
  'workflows.view_jobsettings', 'workflows.view_sshsettings', 'workflows.add_sshsettings', 'workflows.change_sshsettings', 'reports.view_report',
  'reports.add_report', 'reports.view_reportschedule', 'reports.change_reportschedule', 'securitymanager.view_assetprofile',
  'securitymanager.add_assetprofile', 'securitymanager.change_assetprofile', 'securitymanager.view_securitypolicy',
  'securitymanager.add_securitypolicy', 'securitymanager.change_securitypolicy', 'configurations.view_licenseconfiguration',
];

const catalogue = permissionCatalogue.permissions.map((entry) => entry.permission);
const groupNamed = (name: string) => builtinGroupPermissions(permissionCatalogue.builtinGroups.find((group) => group.name === name)!);

describe('the permission catalogue', () => {
  it('holds every permission the spec and the route table name, in app.action_object form, once', () => {
    for (const permission of specPermissions) expect(catalogue).toContain(permission);
    for (const entry of permissionCatalogue.permissions) expect(entry.permission).toBe(`${entry.app}.${entry.codename}`);
    expect(new Set(catalogue).size).toBe(catalogue.length);
  });

  it('gives Administrators everything, Analysts no identity settings, and Viewers only view permissions', () => {
    expect(groupNamed('Administrators')).toEqual(catalogue);
    expect(groupNamed('Analysts')).toContain('queries.add_query');
    expect(groupNamed('Analysts')).not.toContain('users.add_user');
    expect(groupNamed('Analysts')).not.toContain('configurations.change_ldapconfiguration');
    const viewerWrites = groupNamed('Viewers').filter((permission) => !permission.includes('.view_') && !permission.startsWith('authtoken.'));
    expect(viewerWrites).toEqual([]);
    expect(groupNamed('Viewers')).toContain('users.view_devices');
  });
});
