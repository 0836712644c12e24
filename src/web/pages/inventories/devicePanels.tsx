import { t } from '../../app/i18n/messages';
import { hasPermission } from '../../app/session/session';
import { EmptyState, Table, type TableColumn } from '../../ui';
import { AssetLink } from './assetLinks';
import { CertificatePlacesTable } from './CertificatePlacesTable';
import { Facts, type Fact } from './facts';
import { fieldLabel } from './fieldValues';
import { FindingsTable } from './FindingsTable';
import type { AssetDetailResponse, FieldMap, RelationResponse } from './inventoryApi';
import { userInventory } from './inventoryKinds';
import { InstallationsTable } from './InstallationsTable';
import { ServiceInstancesTable } from './ServiceInstancesTable';
import { detailValue } from './sources';
import { DeviceSecurityScore } from '../security/DeviceSecurityScore';
import { DependencyMap } from './DependencyMap';

// The spec's "general" panel: what a device is at a glance (name, system, addresses, hardware, when seen), before the
// full list of its fields under Basic info.
const generalFields = ['Hostname', 'Domain', 'OS.FullOsString', 'OS.Type', 'OS.Version', 'IpAddresses', 'MacAddresses', 'DeviceManufacturer', 'DeviceModel', 'SerialNumber', 'Category', 'FirstSeen', 'LastSeen'];

function loggedInUserColumns(discoveryId: number): TableColumn<RelationResponse>[] {
  return [
    { id: 'user', get header() { return t('inventories.user'); }, cell: (row) => (row.related_asset ? <AssetLink kind={userInventory} id={row.related_asset} discoveryId={discoveryId} name={row.related_name} /> : row.related_name) },
    { id: 'relation', get header() { return t('inventories.relation'); }, cell: (row) => row.relation },
    { id: 'known', get header() { return t('inventories.inUserInventory'); }, cell: (row) => (row.related_asset ? t('inventories.yes') : t('inventories.notMatched')) },
  ];
}

/**
 * A device detail's own panels: general facts and the users logged in on it, then those of the other inventories
 * (installed software, vulnerabilities, services and open ports, certificates), as permitted.
 */
export function devicePanels(asset: AssetDetailResponse, fieldMap: FieldMap, adapterName: (slug: string) => string) {
  const deviceId = asset.PrimaryKey[0];
  const discoveryId = asset.index_id;
  const general = generalFields.filter((key) => Array.isArray(asset[key]) && (asset[key] as unknown[]).length > 0);
  const users = asset.relations.filter((relation) => relation.kind === 'device-user');
  return [
    { id: 'general', label: t('inventories.general'), content: <Facts entries={general.map((key): Fact => [fieldLabel(key, fieldMap[key]), detailValue(asset, key, adapterName), fieldMap[key]?.value_type, fieldMap[key]?.value_titles])} /> },
    {
      id: 'logged-in-users', label: t('inventories.loggedInUsersLength', { length: users.length }),
      content: <Table caption={t('inventories.loggedInUsers')} columns={loggedInUserColumns(discoveryId)} rows={users} rowKey={(row, index) => `${row.related_name}-${index}`} empty={<EmptyState title={t('inventories.noLoggedInUsers')} />} />,
    },
    ...(hasPermission('users.view_applications') ? [{ id: 'software', label: t('inventories.installedSoftware'), content: <InstallationsTable filter={{ device: deviceId }} discoveryId={discoveryId} /> }] : []),
    ...(hasPermission('users.view_avm_vulnerabilities') ? [{ id: 'vulnerabilities', label: t('inventories.vulnerabilities'), content: <FindingsTable filter={{ device: deviceId }} discoveryId={discoveryId} /> }] : []),
    ...(hasPermission('users.view_services') ? [{ id: 'services', label: t('inventories.servicesOpenPorts'), content: <ServiceInstancesTable filter={{ device: deviceId }} discoveryId={discoveryId} /> }] : []),
    ...(hasPermission('users.view_certificates') ? [{ id: 'certificates', label: t('inventories.certificates'), content: <CertificatePlacesTable filter={{ device: deviceId }} discoveryId={discoveryId} /> }] : []),
    ...(hasPermission('devices.view_devicerelation') ? [{ id: 'dependency-map', label: t('inventories.dependencyMap'), content: <DependencyMap deviceId={deviceId} discoveryId={discoveryId} /> }] : []),
    { id: 'security-score', label: t('inventories.securityScore'), content: <DeviceSecurityScore deviceId={deviceId} discoveryId={discoveryId} /> },
  ];
}
