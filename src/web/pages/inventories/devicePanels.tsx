import { hasPermission } from '../../app/session/session';
import { CertificatePlacesTable } from './CertificatePlacesTable';
import { FindingsTable } from './FindingsTable';
import { InstallationsTable } from './InstallationsTable';
import { ServiceInstancesTable } from './ServiceInstancesTable';
import { DeviceSecurityScore } from '../security/DeviceSecurityScore';

/** A device detail's panels of the other inventories: its installed software, its vulnerabilities, its services and open ports and its certificates, as permitted. */
export function devicePanels(deviceId: string, discoveryId: number) {
  return [
    ...(hasPermission('users.view_applications') ? [{ id: 'software', label: 'Installed software', content: <InstallationsTable filter={{ device: deviceId }} discoveryId={discoveryId} /> }] : []),
    ...(hasPermission('users.view_avm_vulnerabilities') ? [{ id: 'vulnerabilities', label: 'Vulnerabilities', content: <FindingsTable filter={{ device: deviceId }} discoveryId={discoveryId} /> }] : []),
    ...(hasPermission('users.view_services') ? [{ id: 'services', label: 'Services and open ports', content: <ServiceInstancesTable filter={{ device: deviceId }} discoveryId={discoveryId} /> }] : []),
    ...(hasPermission('users.view_certificates') ? [{ id: 'certificates', label: 'Certificates', content: <CertificatePlacesTable filter={{ device: deviceId }} discoveryId={discoveryId} /> }] : []),
    { id: 'security-score', label: 'Security score', content: <DeviceSecurityScore deviceId={deviceId} discoveryId={discoveryId} /> },
  ];
}
