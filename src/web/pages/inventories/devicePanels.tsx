import { t } from '../../app/i18n/messages';
import { hasPermission } from '../../app/session/session';
import { CertificatePlacesTable } from './CertificatePlacesTable';
import { FindingsTable } from './FindingsTable';
import { InstallationsTable } from './InstallationsTable';
import { ServiceInstancesTable } from './ServiceInstancesTable';
import { DeviceSecurityScore } from '../security/DeviceSecurityScore';
import { DependencyMap } from './DependencyMap';

/** A device detail's panels of the other inventories: its installed software, its vulnerabilities, its services and open ports and its certificates, and its dependency map, as permitted. */
export function devicePanels(deviceId: string, discoveryId: number) {
  return [
    ...(hasPermission('users.view_applications') ? [{ id: 'software', label: t('inventories.installedSoftware'), content: <InstallationsTable filter={{ device: deviceId }} discoveryId={discoveryId} /> }] : []),
    ...(hasPermission('users.view_avm_vulnerabilities') ? [{ id: 'vulnerabilities', label: t('inventories.vulnerabilities'), content: <FindingsTable filter={{ device: deviceId }} discoveryId={discoveryId} /> }] : []),
    ...(hasPermission('users.view_services') ? [{ id: 'services', label: t('inventories.servicesOpenPorts'), content: <ServiceInstancesTable filter={{ device: deviceId }} discoveryId={discoveryId} /> }] : []),
    ...(hasPermission('users.view_certificates') ? [{ id: 'certificates', label: t('inventories.certificates'), content: <CertificatePlacesTable filter={{ device: deviceId }} discoveryId={discoveryId} /> }] : []),
    ...(hasPermission('devices.view_devicerelation') ? [{ id: 'dependency-map', label: t('inventories.dependencyMap'), content: <DependencyMap deviceId={deviceId} discoveryId={discoveryId} /> }] : []),
    { id: 'security-score', label: t('inventories.securityScore'), content: <DeviceSecurityScore deviceId={deviceId} discoveryId={discoveryId} /> },
  ];
}
