import { t } from '../../app/i18n/messages';
/** What differs between the inventory pages (devices, users, software, vulnerabilities, services, licenses, certificates); everything else is shared. */
export type InventoryKind = {
  entity: 'device' | 'user' | 'software' | 'vulnerability' | 'service' | 'license' | 'certificate';
  title: string;
  basePath: '/device-inventory' | '/user-inventory' | '/software-inventory' | '/vulnerability-inventory' | '/service-inventory' | '/license-inventory' | '/certificate-inventory';
  /** The detail route and the name of its asset parameter. */
  detailPath: string;
  idParam: string;
  /** Search (POST), detail (POST `{path}/{id}`) and export paths of the reference API. */
  searchPath: string;
  exportPath: string;
  /** Where the inventory answers a field's frequent values for the query bar's suggestions (device and user inventories). */
  valuesPath?: string;
  /** The key of this inventory's field map in `/configurations/discovery`. */
  fieldMapKey: 'field_map' | 'user_field_map' | 'application_field_map' | 'vulnerability_field_map' | 'service_field_map' | 'license_field_map' | 'certificate_field_map';
  defaultColumns: string[];
  /** The field that names an asset in titles. */
  nameField: string;
  detailPermission: string;
  /** `pconfig-` key of the list's local configuration (columns, page size, the saved query). */
  configKey: string;
  /** The saved-query type of this inventory's queries. */
  queryType: string;
};

/** The inventories of merged assets with source records (the detail with a panel per source). */
export type AssetKind = InventoryKind & { entity: 'device' | 'user' };

export const deviceInventory: AssetKind = {
  entity: 'device',
  get title() { return t('inventories.devices'); },
  basePath: '/device-inventory',
  detailPath: '/device-inventory/detail/$deviceId/$discoveryId',
  idParam: 'deviceId',
  searchPath: '/devices/devices',
  exportPath: '/devices/export',
  valuesPath: '/devices/values',
  fieldMapKey: 'field_map',
  defaultColumns: ['Adapters', 'Hostname', 'OS.Type', 'IpAddresses', 'SerialNumber', 'LastSeen'],
  nameField: 'Hostname',
  detailPermission: 'users.view_device_detail',
  configKey: 'pconfig-device-inventory',
  queryType: 'device',
};

export const userInventory: AssetKind = {
  entity: 'user',
  get title() { return t('inventories.users'); },
  basePath: '/user-inventory',
  detailPath: '/user-inventory/detail/$userId/$discoveryId',
  idParam: 'userId',
  searchPath: '/userinventory/users',
  exportPath: '/userinventory/export',
  valuesPath: '/userinventory/values',
  fieldMapKey: 'user_field_map',
  defaultColumns: ['Adapters', 'Username', 'DisplayName', 'Email', 'Domain', 'LastLogOnTime'],
  nameField: 'Username',
  detailPermission: 'users.view_user_inventory_detail',
  configKey: 'pconfig-user-inventory',
  queryType: 'user',
};

export const softwareInventory: InventoryKind = {
  entity: 'software',
  get title() { return t('inventories.software'); },
  basePath: '/software-inventory',
  detailPath: '/software-inventory/detail/$softwareId/$discoveryId',
  idParam: 'softwareId',
  searchPath: '/appinventory/applications',
  exportPath: '/appinventory/export',
  fieldMapKey: 'application_field_map',
  defaultColumns: ['Adapters', 'Name', 'Vendor', 'LatestVersion', 'VersionCount', 'InstallCount', 'VulnerabilityCount'],
  nameField: 'Name',
  detailPermission: 'users.view_application_detail',
  configKey: 'pconfig-software-inventory',
  queryType: 'application',
};

export const vulnerabilityInventory: InventoryKind = {
  entity: 'vulnerability',
  get title() { return t('inventories.vulnerabilities'); },
  basePath: '/vulnerability-inventory',
  detailPath: '/vulnerability-inventory/detail/$vulnerabilityId/$discoveryId',
  idParam: 'vulnerabilityId',
  searchPath: '/avm/vulnerabilities',
  exportPath: '/avm/export',
  fieldMapKey: 'vulnerability_field_map',
  defaultColumns: ['Adapters', 'CveId', 'Title', 'Severity', 'Score', 'AffectedDeviceCount', 'LastSeen'],
  nameField: 'CveId',
  detailPermission: 'users.view_avm_vulnerabilities',
  configKey: 'pconfig-vulnerability-inventory',
  queryType: 'vulnerability',
};

export const serviceInventory: InventoryKind = {
  entity: 'service',
  get title() { return t('inventories.services'); },
  basePath: '/service-inventory',
  detailPath: '/service-inventory/detail/$primaryKey/$discoveryId',
  idParam: 'primaryKey',
  searchPath: '/services/services',
  exportPath: '/services/export',
  fieldMapKey: 'service_field_map',
  defaultColumns: ['Adapters', 'Name', 'DisplayName', 'Kinds', 'Ports', 'States', 'StartTypes', 'DeviceCount'],
  nameField: 'Name',
  detailPermission: 'users.view_service_detail',
  configKey: 'pconfig-service-inventory',
  queryType: 'service',
};

export const licenseInventory: InventoryKind = {
  entity: 'license',
  get title() { return t('inventories.licenses'); },
  basePath: '/license-inventory',
  detailPath: '/license-inventory/detail/$licenseId/$discoveryId',
  idParam: 'licenseId',
  searchPath: '/licenses/licenses',
  exportPath: '/licenses/export',
  fieldMapKey: 'license_field_map',
  defaultColumns: ['Adapters', 'Name', 'Vendor', 'SeatsPurchased', 'SeatsUsed', 'SeatsFree', 'OverUse', 'ExpirationDate', 'Cost'],
  nameField: 'Name',
  detailPermission: 'licenses.view_license',
  configKey: 'pconfig-license-inventory',
  queryType: 'license',
};

export const certificateInventory: InventoryKind = {
  entity: 'certificate',
  get title() { return t('inventories.certificates'); },
  basePath: '/certificate-inventory',
  detailPath: '/certificate-inventory/detail/$name/$discoveryId',
  idParam: 'name',
  searchPath: '/certificates/certificates',
  exportPath: '/certificates/export',
  fieldMapKey: 'certificate_field_map',
  defaultColumns: ['Adapters', 'Name', 'Issuer', 'NotAfter', 'ExpiryStatus', 'KeyAlgorithm', 'KeySize', 'EndpointCount', 'Weaknesses'],
  nameField: 'Name',
  detailPermission: 'users.view_certificate_detail',
  configKey: 'pconfig-certificate-inventory',
  queryType: 'certificate',
};

const everyInventory: InventoryKind[] = [deviceInventory, userInventory, softwareInventory, vulnerabilityInventory, serviceInventory, licenseInventory, certificateInventory];

/** The inventory of an entity name as the API spells it (an action's scope, a run's results). */
export const inventoryKindOfEntity = (entity: string): InventoryKind | undefined => everyInventory.find((kind) => kind.entity === entity);
