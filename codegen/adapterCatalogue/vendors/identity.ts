import { clientCredentialsAuth, entraAppAuth, googleServiceAccountAuth, keyPairAuth, microsoftCloud, passwordAuth, tokenAuth } from '../auth.js';
import { flag, multiline, optionalText, secret, text, type AdapterSource } from '../model.js';
import { apiHost, apiUrl, baseUrl, microsoftHosts } from './shared.js';

/** Cloud identity providers and HR systems: the people of the organisation, sometimes their devices. */
export const identity: AdapterSource[] = [
  {
    slug: 'azure-entra', name: 'Microsoft Entra ID', vendor: 'Microsoft', website: 'https://www.microsoft.com/security/business/identity-access/microsoft-entra-id',
    docs_url: 'https://learn.microsoft.com/graph/api/resources/users', description: 'Users and registered or joined devices from Microsoft Entra ID (formerly Azure AD) through Microsoft Graph.',
    groups: ['ad', 'identity'], categories: ['user', 'device'], engine: 'http',
    location: [microsoftCloud(), ...microsoftHosts()],
    auth: [entraAppAuth('Tokens are requested for Microsoft Graph (scope https://graph.microsoft.com/.default).')],
    options: [flag('fetch_devices', 'Fetch devices', 'Read /devices (Entra-registered, joined and hybrid-joined devices).', true), flag('fetch_sign_in_activity', 'Fetch last sign-in', 'Read signInActivity for each user (needs AuditLog.Read.All and an Entra ID P1 or P2 licence).', false), flag('fetch_licenses', 'Fetch licenses', 'Read the tenant\'s Microsoft 365 subscriptions (/subscribedSkus: seats bought and assigned) and which users hold them, for the license inventory (needs Organization.Read.All).', true)],
    guide: {
      prerequisites: ['An Entra ID account that may register applications and grant admin consent (Cloud Application Administrator or Privileged Role Administrator).'],
      grant: [
        'In the Entra admin center open Identity → Applications → App registrations → New registration (single tenant).',
        'Under API permissions add Microsoft Graph → Application permissions: User.Read.All, Device.Read.All and GroupMember.Read.All; add AuditLog.Read.All only if you turn on the last sign-in option, and Organization.Read.All for the licenses option.',
        'Choose Grant admin consent, then create a client secret under Certificates & secrets and copy its Value.',
      ],
      collects: ['Users from /v1.0/users: id, userPrincipalName, mail, display, given and family names, accountEnabled, job title, department, employeeId, on-premises SAM account name and sync state, created time, group memberships, last sign-in (optional).', 'Devices from /v1.0/devices: device id, display name, OS and version, trust type (joined, registered, hybrid), compliant and managed flags, manufacturer, model, last sign-in, registration time.', 'Licenses from /v1.0/subscribedSkus: SKU id and part number, seats enabled (bought) and consumed; each user\'s assigned SKUs (assignedLicenses).'],
      troubleshooting: [
        ['AADSTS700016 "Application not found in the directory"', 'The `Directory (tenant) ID` field names another tenant than the one holding the app registration.'],
        ['AADSTS7000215 "Invalid client secret"', 'Paste the secret Value, not its ID, into the `Client secret` field, or create a new secret if it expired.'],
        ['403 Authorization_RequestDenied', 'Admin consent was not granted, or the permissions were added as Delegated.'],
        ['403 on signInActivity "Tenant does not have a SKU required"', 'Last sign-in needs Entra ID P1 or P2; turn the `Fetch last sign-in` field off.'],
      ],
    },
  },
  {
    slug: 'okta', name: 'Okta', vendor: 'Okta', website: 'https://www.okta.com', docs_url: 'https://developer.okta.com/docs/api/openapi/okta-management/management/tag/User/',
    description: 'Users, their group memberships and registered devices from an Okta organisation.',
    groups: ['identity'], categories: ['user', 'device'], engine: 'http',
    location: [baseUrl('Your Okta organisation URL (https://<org>.okta.com, .oktapreview.com or a custom domain), without -admin.', 'https://acme.okta.com', 'Okta domain')],
    auth: [
      tokenAuth({ title: 'API token', description: 'Sent as "Authorization: SSWS <token>"; it acts with the rights of the admin who created it.', fieldTitle: 'API token', fieldDescription: 'A token from Security → API → Tokens.', example: '00QCjAl4MlV-WPXM-example-token' }),
    ],
    options: [flag('fetch_devices', 'Fetch devices', 'Read /api/v1/devices (Okta Identity Engine orgs only).', true)],
    guide: {
      prerequisites: ['Okta Workforce Identity; devices need Okta Identity Engine.'],
      grant: [
        'API token: sign in as a dedicated admin that holds only the Read-Only Administrator role, then open Security → API → Tokens → Create token.',
        'Service app (preferred): Applications → Create App Integration → API Services; under Okta API Scopes grant okta.users.read, okta.groups.read and okta.devices.read; under Admin roles assign Read-Only Administrator; add a public key under Client Credentials.',
      ],
      collects: ['Users from /api/v1/users: id, status (active, suspended, locked out, deprovisioned), login, e-mail, first and last name, department, title, employee number, manager, created, activated, last login, password changed.', 'Devices from /api/v1/devices?expand=user: platform, manufacturer, model, OS version, serial number, UDID, status and their users.'],
      troubleshooting: [
        ['401 E0000011 "Invalid token provided"', 'The token was revoked, or it expired after 30 days without use; create a new one.'],
        ['403 E0000006 on devices', 'The admin behind the token lacks a role that can view devices, or the org is Classic Engine: turn the `Fetch devices` field off.'],
        ['429 E0000047 rate limit', 'Cartograph waits until X-Rate-Limit-Reset; lower the concurrency of other Okta integrations if it repeats.'],
      ],
    },
  },
  {
    slug: 'onelogin', name: 'OneLogin', vendor: 'One Identity', website: 'https://www.onelogin.com', docs_url: 'https://developers.onelogin.com/api-docs/2/users/list-users',
    description: 'Users from a OneLogin account.',
    groups: ['identity'], categories: ['user'], engine: 'http',
    location: [baseUrl('Your OneLogin API URL: https://<subdomain>.onelogin.com.', 'https://acme.onelogin.com', 'OneLogin URL')],
    auth: [clientCredentialsAuth({ title: 'API credential', description: 'Token from /auth/oauth2/v2/token.', idDescription: 'The Client ID of the API credential.', idExample: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', secretDescription: 'The Client Secret of the API credential.' })],
    guide: {
      prerequisites: ['A OneLogin account owner or an administrator who may create API credentials.'],
      grant: ['In the admin portal open Developers → API Credentials → New Credential.', 'Choose the Read users scope (Read All is not needed).'],
      collects: ['Users from /api/2/users: id, username, e-mail, first and last name, title, department, state and status, last login, created, locked until, manager, directory.'],
      troubleshooting: [['401 "Unauthorized"', 'The credential was created in another region or account: check the `OneLogin URL` field.'], ['403', 'The credential scope is Authentication Only; create one with Read users.']],
    },
  },
  {
    slug: 'google-workspace', name: 'Google Workspace', vendor: 'Google', website: 'https://workspace.google.com', docs_url: 'https://developers.google.com/admin-sdk/directory/reference/rest',
    description: 'Users, ChromeOS devices and mobile devices from the Google Workspace Admin SDK Directory API.',
    groups: ['identity', 'mdm'], categories: ['user', 'device'], engine: 'http',
    location: [
      apiUrl('https://admin.googleapis.com', 'The Admin SDK API root.'),
      text('customer_id', 'Customer ID', 'my_customer for the account of the impersonated administrator, or the Customer ID from Admin console → Account → Account settings.', ['my_customer'], { default: 'my_customer' }),
    ],
    auth: [googleServiceAccountAuth({ description: 'A service account with domain-wide delegation; Cartograph signs a JWT with its key and impersonates an administrator.', impersonate: true })],
    options: [flag('fetch_chromeos', 'Fetch ChromeOS devices', 'Read /devices/chromeos.', true), flag('fetch_mobile', 'Fetch mobile devices', 'Read /devices/mobile (needs Google endpoint management).', true)],
    guide: {
      prerequisites: ['A Google Cloud project in which you may create a service account, and a Google Workspace super administrator for delegation.', 'The Admin SDK API enabled in that project (APIs & Services → Library → Admin SDK API).'],
      grant: [
        'In Google Cloud open IAM & Admin → Service accounts → Create service account, then Keys → Add key → JSON.',
        'In the Admin console open Security → Access and data control → API controls → Manage Domain Wide Delegation → Add new, with the service account\'s client ID and the scopes https://www.googleapis.com/auth/admin.directory.user.readonly, https://www.googleapis.com/auth/admin.directory.device.chromeos.readonly and https://www.googleapis.com/auth/admin.directory.device.mobile.readonly.',
        'Pick an administrator whose role can read users and devices (a custom admin role with Users → Read and Services → Chrome OS / Mobile device management is enough).',
      ],
      collects: ['Users: primary e-mail, names, suspended and archived flags, admin flag, 2-Step Verification enrolment, org unit, created and last login.', 'ChromeOS devices: device id, serial number, MAC addresses, model, OS and platform versions, status, last sync, annotated user and asset id, recent users, last known IPs.', 'Mobile devices: serial number, IMEI, Wi-Fi MAC, model, OS, type, status, owner e-mail, first and last sync.'],
      troubleshooting: [
        ['unauthorized_client "Client is unauthorized to retrieve access tokens"', 'Domain-wide delegation is missing, uses another client ID, or lacks one of the scopes.'],
        ['403 "Not Authorized to access this resource/api"', 'The `Administrator to impersonate` field names a user without the needed admin privileges.'],
        ['403 "Admin SDK API has not been used in project"', 'Enable the Admin SDK API in the service account\'s project.'],
      ],
    },
  },
  {
    slug: 'jumpcloud', name: 'JumpCloud', vendor: 'JumpCloud', website: 'https://jumpcloud.com', docs_url: 'https://docs.jumpcloud.com/api/',
    description: 'Users and managed systems (devices) from the JumpCloud directory platform.',
    groups: ['identity', 'mdm'], categories: ['user', 'device', 'application'], engine: 'http',
    location: [apiHost('The JumpCloud region your organisation lives in: United States, European Union or India.', ['https://console.jumpcloud.com', 'https://console.eu.jumpcloud.com', 'https://console.in.jumpcloud.com'])],
    auth: [tokenAuth({ type: 'api_key', title: 'API key', description: 'Sent in the x-api-key header.', field: 'api_key', fieldTitle: 'API key', fieldDescription: 'The API key of an administrator (your name in the top right → My API Key).', example: '0123456789abcdef0123456789abcdef01234567' })],
    options: [optionalText('org_id', 'Organization ID', 'Only for multi-tenant (MTP) administrators: the organisation to read, sent as x-org-id.', ['5f1a2b3c4d5e6f7a8b9c0d1e'])],
    guide: {
      prerequisites: ['A JumpCloud administrator account dedicated to integrations.'],
      grant: ['Create an administrator with the Read Only role (Settings → Administrators → +).', 'Sign in as that administrator and open the account menu (top right) → My API Key → Generate New API Key.'],
      collects: ['Users from /api/systemusers: username, e-mail, names, employee id, department, job title, state (activated, suspended), MFA, password expiry, last login.', 'Systems from /api/systems: hostname, display name, OS and version, serial number, agent version, last contact, network interfaces; installed programs (Windows), apps (macOS) and packages (Linux) from System Insights (/api/v2/systeminsights).'],
      troubleshooting: [['401 "Unauthorized"', 'API keys are tied to one administrator and invalidated when it generates a new key.'], ['Empty lists for an MSP', 'Fill in the `Organization ID` field.']],
    },
  },
  {
    slug: 'ping-identity', name: 'PingOne', vendor: 'Ping Identity', website: 'https://www.pingidentity.com', docs_url: 'https://apidocs.pingidentity.com/pingone/platform/v1/api/',
    description: 'Users of a PingOne environment.',
    groups: ['identity'], categories: ['user'], engine: 'http',
    location: [
      apiHost('The PingOne region of the environment: North America, Europe, Asia-Pacific or Canada.', ['https://api.pingone.com', 'https://api.pingone.eu', 'https://api.pingone.asia', 'https://api.pingone.ca']),
      text('environment_id', 'Environment ID', 'The Environment ID (Settings → Environment Properties).', ['a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'], { format: 'uuid' }),
    ],
    auth: [clientCredentialsAuth({ title: 'Worker application', description: 'Client credentials at auth.pingone.<region>/{environmentId}/as/token.', idDescription: 'The Client ID of the worker application.', idExample: '7e1a2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b', secretDescription: 'The Client Secret of the worker application.' })],
    guide: {
      prerequisites: ['A PingOne environment and an administrator who can create applications.'],
      grant: ['Open Applications → Applications → + → Worker, and enable it.', 'On the Roles tab grant Identity Data Read Only for the environment.', 'Copy the Client ID and Client Secret from the Configuration tab.'],
      collects: ['Users from /v1/environments/{id}/users: username, e-mail, name, population, enabled, account status, MFA enabled, created, updated, last sign-on; the members of each group (/v1/environments/{id}/groups) as their groups.'],
      troubleshooting: [['403 "The request could not be completed. You do not have access"', 'The worker app lacks the Identity Data Read Only role.'], ['401 on token', 'The `Region` field does not match the environment\'s region.']],
    },
  },
  {
    slug: 'duo', name: 'Cisco Duo', vendor: 'Cisco', website: 'https://duo.com', docs_url: 'https://duo.com/docs/adminapi',
    description: 'Users, their enrolled phones and hardware tokens from the Duo Admin API.',
    groups: ['identity'], categories: ['user', 'device'], engine: 'http',
    location: [text('api_hostname', 'API hostname', 'The API hostname of the Admin API application, e.g. api-xxxxxxxx.duosecurity.com.', ['api-1a2b3c4d.duosecurity.com'], { pattern: '^api-[a-z0-9]+\\.duosecurity\\.com$' })],
    auth: [keyPairAuth({ title: 'Admin API application', description: 'Every request is signed (HMAC) with the secret key.', idName: 'integration_key', idTitle: 'Integration key', idDescription: 'The Integration key of the Admin API application.', idExample: 'DIWJ8X6AEYOR5OMC6TQ1', secretName: 'secret_key', secretTitle: 'Secret key', secretDescription: 'The Secret key of the Admin API application.' })],
    guide: {
      prerequisites: ['Duo Essentials, Advantage or Premier; an Owner administrator to create the application.'],
      grant: ['In the Duo Admin Panel open Applications → Protect an Application → Admin API → Protect.', 'Grant only Grant read resource (users, phones, tokens), and save.'],
      collects: ['Users from /admin/v1/users: username, real name, e-mail, status, created, last login, enrolled flag, groups.', 'Phones from /admin/v1/phones (model, platform, OS version, last seen, their users) and hardware tokens from /admin/v1/tokens (type, serial, their users), as devices.'],
      troubleshooting: [['40103 "Invalid signature"', 'The clock of the Cartograph host is skewed or the secret key is wrong.'], ['40301 "Access forbidden"', 'The application lacks Grant read resource.']],
    },
  },
  {
    slug: 'keycloak', name: 'Keycloak', vendor: 'Keycloak (CNCF)', website: 'https://www.keycloak.org', docs_url: 'https://www.keycloak.org/docs-api/latest/rest-api/index.html',
    description: 'Users of a Keycloak realm through the Admin REST API.',
    groups: ['identity'], categories: ['user'], engine: 'http',
    location: [baseUrl('The Keycloak server URL (without /realms or /admin).', 'https://sso.corp.example.com'), text('realm', 'Realm', 'The realm whose users are read; the client lives in the same realm.', ['corp'])],
    auth: [clientCredentialsAuth({ title: 'Confidential client with a service account', description: 'Client credentials at /realms/{realm}/protocol/openid-connect/token.', idDescription: 'The Client ID of a confidential client with Service accounts roles enabled.', idExample: 'cartograph', secretDescription: 'The client secret from the client\'s Credentials tab.' })],
    guide: {
      prerequisites: ['Keycloak 17 or later (Quarkus distribution, no /auth prefix); add /auth to the `Base URL` field for older servers.'],
      grant: ['In the realm open Clients → Create client: OpenID Connect, Client authentication on, Service accounts roles on.', 'On the Service accounts roles tab assign the realm-management client roles view-users, query-users and query-groups.'],
      collects: ['Users from /admin/realms/{realm}/users: username, e-mail, first and last name, enabled, e-mail verified, created timestamp, federation link, attributes; groups from the members of each group (/admin/realms/{realm}/groups/{id}/members).'],
      troubleshooting: [['403 on /users', 'The service account lacks realm-management view-users.'], ['404 on token', 'Servers before Keycloak 17 need /auth in the `Base URL` field.']],
    },
  },
  {
    slug: 'auth0', name: 'Auth0', vendor: 'Okta (Auth0)', website: 'https://auth0.com', docs_url: 'https://auth0.com/docs/api/management/v2/users/get-users',
    description: 'Users of an Auth0 tenant through the Management API.',
    groups: ['identity'], categories: ['user'], engine: 'http',
    location: [text('domain', 'Tenant domain', 'The tenant domain, e.g. acme.eu.auth0.com (Settings → Custom Domains does not apply to the Management API).', ['acme.eu.auth0.com'])],
    auth: [clientCredentialsAuth({ title: 'Machine-to-machine application', description: 'Client credentials with audience https://<tenant domain>/api/v2/.', idDescription: 'The Client ID of the machine-to-machine application.', idExample: 'Vq3Xy7ZpR2nH8kLm4sTw9aBc', secretDescription: 'The Client Secret of that application.' })],
    guide: {
      prerequisites: ['An Auth0 tenant administrator.'],
      grant: ['Open Applications → Applications → Create Application → Machine to Machine Applications.', 'Authorise it for the Auth0 Management API with the read:users and read:roles scopes only.'],
      collects: ['Users from /api/v2/users: user_id, e-mail, verified flag, name, nickname, identities (connections), created, updated, last login, logins count, blocked; and the members of each role (/api/v2/roles), as their groups.'],
      troubleshooting: [['403 "Insufficient scope"', 'Add read:users and read:roles to the application\'s Management API grant.'], ['Only 1000 users', 'The search endpoint returns at most 1000 results per query; Cartograph reads users sorted by creation date, each page asking for those created after the last one, so the cap does not apply.']],
    },
  },
  {
    slug: 'bamboohr', name: 'BambooHR', vendor: 'BambooHR', website: 'https://www.bamboohr.com', docs_url: 'https://documentation.bamboohr.com/reference',
    description: 'Employees (with department, manager and status) from BambooHR.',
    groups: ['hr'], categories: ['user'], engine: 'http',
    location: [apiUrl('https://api.bamboohr.com/api/gateway.php', 'The BambooHR API root.'), text('company_domain', 'Company domain', 'The subdomain of your BambooHR URL: acme for https://acme.bamboohr.com.', ['acme'])],
    auth: [tokenAuth({ type: 'api_key', title: 'API key', description: 'Sent as the HTTP Basic user name with the password "x".', field: 'api_key', fieldTitle: 'API key', fieldDescription: 'A BambooHR API key.', example: '0123456789abcdef0123456789abcdef01234567' })],
    guide: {
      prerequisites: ['A BambooHR user whose access level can see the employee fields to read (a custom access level limited to job and contact fields is enough).'],
      grant: ['Sign in as that user, click your name (top right) → API Keys → Add New Key, and copy it.'],
      collects: ['Employees, current and former, from a custom report (/v1/reports/custom): id, employee number, first and last name, work e-mail, job title, department, division, location, supervisor, status, hire and termination dates.'],
      troubleshooting: [['401', 'The key was deleted or its user deactivated.'], ['403 on some fields', 'The key\'s user cannot see those fields; widen its access level.']],
    },
  },
  {
    slug: 'workday', name: 'Workday', vendor: 'Workday', website: 'https://www.workday.com', docs_url: 'https://doc.workday.com/reader/J1YvI9CYZUWl1U7_PSHyHA/qAugF2pRAGtECVLHKdMO_A',
    description: 'Workers from a Workday custom report exposed as a web service (RaaS).',
    groups: ['hr'], categories: ['user'], engine: 'http',
    location: [{ name: 'report_url', required: true, schema: { type: 'string', format: 'uri', pattern: '^https://', title: 'Report URL', description: 'The JSON URL of the report (Actions → Web Service → View URLs → JSON), e.g. https://wd5-services1.myworkday.com/ccx/service/customreport2/acme/ISU_Cartograph/Workers_for_Cartograph?format=json.', examples: ['https://wd5-services1.myworkday.com/ccx/service/customreport2/acme/ISU_Cartograph/Workers_for_Cartograph?format=json'] } }],
    auth: [passwordAuth({ title: 'Integration System User', description: 'HTTP Basic.', userTitle: 'Integration System User', userDescription: 'The ISU name with the tenant, e.g. ISU_Cartograph@acme.', userExample: 'ISU_Cartograph@acme', passwordDescription: 'The ISU password (set "Do not allow UI sessions" and a long expiry on the ISU).' })],
    guide: {
      prerequisites: ['A Workday administrator who can create Integration System Users, security groups and custom reports.'],
      grant: ['Create an Integration System User (Create Integration System User) and an integration system security group (unconstrained) containing it.', 'Grant the group Get access to the Worker Data: Public Worker Reports and Worker Data: Workers domains, then Activate Pending Security Policy Changes.', 'Create an Advanced custom report on All Workers with the fields to read, tick Enable As Web Service, and share it with the ISU.'],
      collects: ['The report\'s workers, read from these column aliases: Employee_ID, User_Name, Email_Address (or Work_Email), First_Name, Last_Name, Legal_Name (or Worker), Supervisory_Organization (or Department), Location, Hire_Date; other columns are kept in the raw record.'],
      troubleshooting: [['401 "Invalid user name or password"', 'The ISU password expired; ISU passwords follow the tenant policy unless exempted.'], ['Empty Report_Entry', 'The ISU\'s security group lacks access to the worker domains.']],
    },
  },
  {
    slug: 'knowbe4', name: 'KnowBe4', vendor: 'KnowBe4', website: 'https://www.knowbe4.com', docs_url: 'https://developer.knowbe4.com/rest/reporting',
    description: 'Users with their phish-prone percentage and training status from the KnowBe4 Reporting API.',
    groups: ['security_awareness'], categories: ['user'], engine: 'http',
    location: [apiHost('The Reporting API host of your KnowBe4 instance: US, EU, CA, UK or DE.', ['https://us.api.knowbe4.com', 'https://eu.api.knowbe4.com', 'https://ca.api.knowbe4.com', 'https://uk.api.knowbe4.com', 'https://de.api.knowbe4.com'])],
    auth: [tokenAuth({ title: 'Reporting API token', description: 'Sent as a Bearer token.', fieldTitle: 'Reporting API token', fieldDescription: 'The token from Account Settings → Account Integrations → API → Reporting API.', example: 'eyJhbGciOiJIUzUxMiJ9.example' })],
    guide: {
      prerequisites: ['A KnowBe4 Platinum or Diamond subscription (the Reporting API is not in lower tiers).'],
      grant: ['As an account administrator open Account Settings → Account Integrations → API, enable the Reporting API and copy the secure token.'],
      collects: ['Users from /v1/users: e-mail, names, employee number, job title, department, manager, location, status, phish-prone percentage, current risk score, joined and last sign-in.'],
      troubleshooting: [['401', 'The token was regenerated, or it belongs to another region (check the `Region` field).'], ['429', 'KnowBe4 limits Reporting API calls per second and per day; Cartograph waits and continues, and a daily limit resumes on the next discovery.']],
    },
  },
];
