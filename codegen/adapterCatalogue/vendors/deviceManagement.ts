import { clientCredentialsAuth, entraAppAuth, microsoftCloud, passwordAuth, tokenAuth } from '../auth.js';
import { flag, secret, text, type AdapterSource } from '../model.js';
import { apiHost, baseUrl, microsoftHosts } from './shared.js';

/** Mobile-device management and unified endpoint management. */
export const deviceManagement: AdapterSource[] = [
  {
    slug: 'jamfpro', name: 'Jamf Pro', vendor: 'Jamf', website: 'https://www.jamf.com/products/jamf-pro/', docs_url: 'https://developer.jamf.com/jamf-pro/reference',
    description: 'Managed Macs and mobile devices, with their users and applications, from Jamf Pro.',
    groups: ['mdm'], categories: ['device', 'application'], engine: 'http',
    location: [baseUrl('Your Jamf Pro URL: https://<instance>.jamfcloud.com, or the on-premises server with its port (often 8443).', 'https://acme.jamfcloud.com', 'Jamf Pro URL')],
    auth: [
      clientCredentialsAuth({ title: 'API client', description: 'An API client (Jamf Pro 10.49 or later); token from /api/oauth/token.', idDescription: 'The Client ID of the API client.', idExample: '3a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', secretDescription: 'The client secret generated for the API client (shown once).' }),
      passwordAuth({ type: 'user_token', title: 'Jamf Pro user', description: 'A standard account; HTTP Basic on /api/v1/auth/token, then Bearer.', userDescription: 'A Jamf Pro user account with an Auditor-like privilege set.', userExample: 'svc-cartograph', passwordDescription: 'That account\'s password.' }),
    ],
    options: [flag('fetch_mobile_devices', 'Fetch mobile devices', 'Also read iPhones, iPads and Apple TVs from /api/v2/mobile-devices/detail.', true), flag('fetch_applications', 'Fetch applications', 'Read the APPLICATIONS section of each computer.', true)],
    guide: {
      prerequisites: ['Jamf Pro 10.49 or later for API clients (older versions: use a user account).'],
      grant: [
        'Open Settings → System → API roles and clients → API Roles → New, with the privileges Read Computers, Read Mobile Devices and Read Users.',
        'On the API Clients tab choose New, assign that role, enable the client and choose Generate client secret.',
      ],
      collects: ['Computers from /api/v1/computers-inventory (sections GENERAL, HARDWARE, OPERATING_SYSTEM, USER_AND_LOCATION, APPLICATIONS): name, UDID, serial number, MAC addresses, model, OS version and build, last IP and last reported IP, last contact, managed state, site, user name and e-mail, installed applications.', 'Mobile devices: name, serial number, UDID, Wi-Fi MAC, model, OS version, user, last inventory update.'],
      troubleshooting: [
        ['401 on /api/oauth/token', 'The API client is disabled or its secret was regenerated.'],
        ['403 "INVALID_PRIVILEGE"', 'The API role misses Read Computers or Read Mobile Devices.'],
        ['Mac applications missing', 'Turn on the `Fetch applications` field; Jamf only returns sections that are asked for.'],
      ],
    },
  },
  {
    slug: 'kandji', name: 'Kandji', vendor: 'Kandji', website: 'https://www.kandji.io', docs_url: 'https://api-docs.kandji.io',
    description: 'Apple devices, their apps and users from Kandji.',
    groups: ['mdm'], categories: ['device', 'application'], engine: 'http',
    location: [baseUrl('Your API URL from Settings → Access: https://<subdomain>.api.kandji.io (US) or https://<subdomain>.api.eu.kandji.io (EU).', 'https://acme.api.kandji.io', 'API URL')],
    auth: [tokenAuth({ title: 'API token', description: 'Sent as a Bearer token.', fieldTitle: 'API token', fieldDescription: 'A token from Settings → Access → API Token.', example: '8f1a2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b' })],
    guide: {
      prerequisites: ['A Kandji administrator.'],
      grant: ['Open Settings → Access → API Token → Add API Token and name it.', 'In Manage API Permissions allow only Device list, Device details and Device apps (under Devices).'],
      collects: ['Devices from /api/v1/devices and /details: device id, name, serial number, model, platform, OS version, MAC and IP address, last check-in, user, asset tag, Blueprint, agent version, MDM state; installed apps per device.'],
      troubleshooting: [['401', 'The token was revoked or its permissions changed after creation.'], ['403 on apps', 'Add the Device apps permission to the token.']],
    },
  },
  {
    slug: 'microsoft-intune', name: 'Microsoft Intune', vendor: 'Microsoft', website: 'https://www.microsoft.com/security/business/microsoft-intune', docs_url: 'https://learn.microsoft.com/graph/api/intune-devices-manageddevice-list',
    description: 'Managed devices and detected apps from Microsoft Intune through Microsoft Graph.',
    groups: ['mdm'], categories: ['device', 'application'], engine: 'http',
    location: [microsoftCloud(), ...microsoftHosts()],
    auth: [entraAppAuth('Tokens are requested for Microsoft Graph (scope https://graph.microsoft.com/.default).')],
    options: [flag('fetch_software', 'Fetch detected apps', 'Also read the apps Intune detected and the managed devices each one is installed on (one request per app).', true)],
    guide: {
      prerequisites: ['Intune licences in the tenant and an account that can grant admin consent.'],
      grant: ['Register an app in the Entra admin center (App registrations → New registration).', 'Add Microsoft Graph → Application permissions → DeviceManagementManagedDevices.Read.All, then Grant admin consent.', 'Create a client secret under Certificates & secrets and copy its Value.'],
      collects: ['Managed devices from /v1.0/deviceManagement/managedDevices: Intune device id, device name, serial number, Wi-Fi and Ethernet MAC, IMEI, OS and version, manufacturer, model, Entra device id, primary user UPN and e-mail, enrolled and last sync times, compliance state, management agent, ownership, encryption.', 'Detected apps from /v1.0/deviceManagement/detectedApps (name, publisher, version) and, per app, the managed devices it is installed on.'],
      troubleshooting: [['403 "Application is not authorized to perform this operation"', 'Admin consent for DeviceManagementManagedDevices.Read.All is missing.'], ['Empty list', 'The tenant has no Intune licence or the device is managed by another MDM authority.']],
    },
  },
  {
    slug: 'vmware-mdm-airwatch', name: 'Omnissa Workspace ONE UEM (AirWatch)', vendor: 'Omnissa (formerly VMware)', website: 'https://www.omnissa.com/products/workspace-one-unified-endpoint-management/',
    docs_url: 'https://developer.omnissa.com/ws1-uem-apis/', description: 'Enrolled devices and their users from Workspace ONE UEM (formerly VMware AirWatch).',
    groups: ['mdm', 'nac'], categories: ['device', 'application'], engine: 'http',
    location: [
      baseUrl('The REST API URL of your environment (Groups & Settings → All Settings → System → Advanced → Site URLs → REST API URL), e.g. https://as1234.awmdm.com.', 'https://as1234.awmdm.com', 'REST API URL'),
      text('tenant_code', 'API key (aw-tenant-code)', 'The REST API key of the organisation group (Groups & Settings → All Settings → System → Advanced → API → REST API), sent as aw-tenant-code.', ['1AB2CD3EF4GH5IJ6KL7MN8OP9QR0ST1U']),
    ],
    auth: [
      clientCredentialsAuth({ title: 'OAuth client', description: 'Token from the regional Workspace ONE token service (the token URL of your region is listed in the Workspace ONE UEM API documentation).', idDescription: 'The Client ID from Groups & Settings → Configurations → OAuth Client Management.', idExample: '6f0e1d2c3b4a59687f6e5d4c3b2a1908', secretDescription: 'The client secret of that OAuth client.' }),
      passwordAuth({ title: 'Admin account', description: 'HTTP Basic with a console administrator.', userDescription: 'A Workspace ONE UEM administrator with a read-only role.', userExample: 'svc-cartograph', passwordDescription: 'That administrator\'s password.' }),
    ],
    guide: {
      prerequisites: ['Workspace ONE UEM 2209 or later for OAuth clients.'],
      grant: ['Create an OAuth client (Groups & Settings → Configurations → OAuth Client Management → Add) at the top organisation group with the Read Only Administrator role.', 'Enable REST API access and copy the API key (Groups & Settings → All Settings → System → Advanced → API → REST API).'],
      collects: ['Devices from /api/mdm/devices/search: device id, UDID, serial number, friendly name, MAC address, IMEI, platform, model, OS version, enrolment status, compliance, ownership, last seen, enrolled user and e-mail, organisation group.'],
      troubleshooting: [['401 "User credentials are invalid"', 'The `API key (aw-tenant-code)` field belongs to another organisation group.'], ['1013 "Invalid Tenant Code"', 'REST API access is disabled for that organisation group.']],
    },
  },
  {
    slug: 'ivanti-epmm', name: 'Ivanti EPMM (MobileIron Core)', vendor: 'Ivanti', website: 'https://www.ivanti.com/products/endpoint-manager-mobile',
    description: 'Registered devices from Ivanti Endpoint Manager Mobile (formerly MobileIron Core).',
    groups: ['mdm'], categories: ['device'], engine: 'http',
    location: [baseUrl('The EPMM (Core) server URL.', 'https://emm.corp.example.com', 'EPMM URL'), text('device_space_id', 'Admin device space ID', 'The admin device space to read (1 is the global space).', ['1'], { default: '1' })],
    auth: [passwordAuth({ title: 'API user', description: 'HTTP Basic on /api/v2.', userDescription: 'A local EPMM user with the API role.', userExample: 'svc-cartograph', passwordDescription: 'That user\'s password.' })],
    guide: {
      prerequisites: ['EPMM (Core) 10.x or later.'],
      grant: ['In the admin portal open Admin → Admins → Add local user, then Actions → Assign to space (Global) with the API role and View device page roles only.'],
      collects: ['Devices from /api/v2/devices: UUID, device name, serial number, IMEI, Wi-Fi MAC, platform, OS version, manufacturer, model, status, compliance, user id and e-mail, last check-in.'],
      troubleshooting: [['401', 'Local users need the API role; LDAP users cannot use the API unless allowed.'], ['Empty list', 'Check the `Admin device space ID` field.']],
    },
  },
  {
    slug: 'soti-mobicontrol', name: 'SOTI MobiControl', vendor: 'SOTI', website: 'https://soti.net/products/soti-mobicontrol/',
    description: 'Managed devices from SOTI MobiControl.',
    groups: ['mdm'], categories: ['device'], engine: 'http',
    location: [baseUrl('The MobiControl server URL up to /MobiControl.', 'https://mobicontrol.corp.example.com/MobiControl', 'MobiControl URL')],
    auth: [{
      ...clientCredentialsAuth({ title: 'API client and console user', description: 'OAuth password grant at /api/token with the API client credentials and a console user.', idDescription: 'The client ID created with MCAdmin.exe APIClientAdd.', idExample: '8b1e3c0d9f2a4b6c8d0e1f2a3b4c5d6e', secretDescription: 'The client secret printed by MCAdmin.exe APIClientAdd.', extra: [text('username', 'Console user', 'A MobiControl console user with view-only device permissions.', ['svc-cartograph']), secret('password', 'Password', 'That console user\'s password.', 'correct-horse-battery-staple')] }),
      type: 'oauth2_password',
    }],
    guide: {
      prerequisites: ['Shell access to the MobiControl deployment server to register an API client.'],
      grant: ['On the deployment server run MCAdmin.exe APIClientAdd -n Cartograph and note the client ID and secret.', 'Create a console user with view-only device permissions.'],
      collects: ['Devices from /api/devices: device id, name, family, model, OS version, serial number, IMEI, MAC, IP, online state, last check-in, path (device group).'],
      troubleshooting: [['invalid_client', 'The API client was registered on another server farm.'], ['403', 'The console user lacks view rights on the device groups.']],
    },
  },
  {
    slug: 'hexnode', name: 'Hexnode UEM', vendor: 'Hexnode', website: 'https://www.hexnode.com', docs_url: 'https://www.hexnode.com/mobile-device-management/api/',
    description: 'Enrolled devices from Hexnode UEM.',
    groups: ['mdm'], categories: ['device'], engine: 'http',
    location: [baseUrl('Your portal URL: https://<portal>.hexnodemdm.com.', 'https://acme.hexnodemdm.com', 'Portal URL')],
    auth: [tokenAuth({ type: 'api_key', title: 'API key', description: 'Sent in the Authorization header.', field: 'api_key', fieldTitle: 'API key', fieldDescription: 'The key from Admin → API → Enable API Access.', example: 'a1b2c3d4e5f6a7b8c9d0' })],
    guide: {
      prerequisites: ['A Hexnode administrator (Super Admin to enable API access).'],
      grant: ['Open Admin → API, turn on Enable API Access and copy the API key.'],
      collects: ['Devices from /api/v1/devices/: device name, serial number, IMEI, MAC, model, OS and version, enrolment status, compliance, last check-in, user.'],
      troubleshooting: [['401', 'The key was regenerated; copy the new one.']],
    },
  },
  {
    slug: 'maas360', name: 'IBM MaaS360', vendor: 'IBM', website: 'https://www.ibm.com/products/maas360', docs_url: 'https://www.ibm.com/docs/en/maas360?topic=apis-maas360-rest-api',
    description: 'Managed devices from IBM MaaS360.', beta: true,
    groups: ['mdm'], categories: ['device'], engine: 'http',
    location: [apiHost('The services host of your MaaS360 instance (shown in the portal URL: m1, m2, m3, m4 or m6).', ['https://services.fiberlink.com', 'https://services.m2.maas360.com', 'https://services.m3.maas360.com', 'https://services.m4.maas360.com', 'https://services.m6.maas360.com'], 'Instance'), text('billing_id', 'Billing ID', 'The account\'s billing ID (Setup → Account).', ['30012345'])],
    auth: [{
      type: 'maas360_access_key', title: 'App access key and administrator', description: 'authenticate with the app ID, access key and an administrator; the token is sent as MaaS token="…".',
      fields: [
        text('app_id', 'App ID', 'The App ID issued with the access key.', ['com.acme.cartograph']),
        ...passwordAuth({ title: '', description: '', userDescription: 'A MaaS360 administrator with the Read-only role.', userExample: 'svc-cartograph', passwordDescription: 'That administrator\'s password.' }).fields,
        { name: 'access_key', required: true, secretExample: 'ABCD1234EFGH5678', schema: { type: 'string', minLength: 1, title: 'App access key', description: 'The access key from Setup → Manage Access Keys.', 'x-secret': true } },
      ],
    }],
    guide: {
      prerequisites: ['MaaS360 with API access enabled (ask IBM support if Manage Access Keys is missing).'],
      grant: ['Open Setup → Manage Access Keys → Generate Access Key.', 'Create an administrator with the Read-only role for the API calls.'],
      collects: ['Devices from /device-apis/devices/2.0/search: device id, name, serial number, IMEI, Wi-Fi MAC, platform, model, OS, ownership, compliance, last reported, user name and e-mail.'],
      troubleshooting: [['"Invalid access key"', 'The key belongs to another billing ID.']],
    },
  },
];
