import type { AdapterSource } from '../model.js';
import { cloud } from './cloud.js';
import { collaboration } from './collaboration.js';
import { dataSecurity } from './dataSecurity.js';
import { dataSources } from './dataSources.js';
import { deviceManagement } from './deviceManagement.js';
import { directories } from './directories.js';
import { endpointSecurity } from './endpointSecurity.js';
import { identity } from './identity.js';
import { monitoring } from './monitoring.js';
import { network } from './network.js';
import { serviceManagement } from './serviceManagement.js';
import { softwareDeployment } from './softwareDeployment.js';
import { virtualization } from './virtualization.js';
import { vulnerability } from './vulnerability.js';

/** Every adapter of the catalogue, grouped by kind of system. */
export const catalogue: AdapterSource[] = [
  ...endpointSecurity, ...directories, ...identity, ...deviceManagement, ...softwareDeployment, ...vulnerability, ...cloud,
  ...virtualization, ...serviceManagement, ...network, ...monitoring, ...collaboration, ...dataSecurity, ...dataSources,
];
