/** What differs between the device and the user inventory pages; everything else is shared. */
export type InventoryKind = {
  entity: 'device' | 'user';
  title: string;
  basePath: '/device-inventory' | '/user-inventory';
  /** Search (POST), detail (POST `{path}/{id}`) and export paths of the reference API. */
  searchPath: string;
  exportPath: string;
  /** The key of this inventory's field map in `/configurations/discovery`. */
  fieldMapKey: 'field_map' | 'user_field_map';
  defaultColumns: string[];
  /** The field that names an asset in titles. */
  nameField: string;
  detailPermission: string;
  /** `pconfig-` key of the list's local configuration (columns, page size, the saved query). */
  configKey: string;
};

export const deviceInventory: InventoryKind = {
  entity: 'device',
  title: 'Devices',
  basePath: '/device-inventory',
  searchPath: '/devices/devices',
  exportPath: '/devices/export',
  fieldMapKey: 'field_map',
  defaultColumns: ['Adapters', 'Hostname', 'OS.Type', 'IpAddresses', 'SerialNumber', 'LastSeen'],
  nameField: 'Hostname',
  detailPermission: 'users.view_device_detail',
  configKey: 'pconfig-device-inventory',
};

export const userInventory: InventoryKind = {
  entity: 'user',
  title: 'Users',
  basePath: '/user-inventory',
  searchPath: '/userinventory/users',
  exportPath: '/userinventory/export',
  fieldMapKey: 'user_field_map',
  defaultColumns: ['Adapters', 'Username', 'DisplayName', 'Email', 'Domain', 'LastLogOnTime'],
  nameField: 'Username',
  detailPermission: 'users.view_user_inventory_detail',
  configKey: 'pconfig-user-inventory',
};
