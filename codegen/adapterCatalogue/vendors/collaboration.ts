import { clientCredentialsAuth, keyPairAuth, tokenAuth } from '../auth.js';
import { flag, text, type AdapterSource } from '../model.js';
import { apiUrl, baseUrl } from './shared.js';

/** SaaS collaboration and developer platforms: their member lists are user inventories (and licence use). */
export const collaboration: AdapterSource[] = [
  {
    slug: 'slack', name: 'Slack', vendor: 'Salesforce (Slack)', website: 'https://slack.com', docs_url: 'https://api.slack.com/methods/users.list',
    description: 'Members of a Slack workspace (users.list), with admin, guest and deactivation state.',
    groups: ['collaboration'], categories: ['user'], engine: 'http',
    location: [apiUrl('https://slack.com/api', 'The Slack Web API root; GovSlack workspaces use https://slack-gov.com/api.')],
    auth: [tokenAuth({ type: 'bot_token', title: 'Bot token', description: 'Sent as a Bearer token to https://slack.com/api.', field: 'bot_token', fieldTitle: 'Bot User OAuth Token', fieldDescription: 'The xoxb- token from your Slack app → OAuth & Permissions, after installing it to the workspace.', example: 'xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx' })],
    options: [flag('include_bots', 'Include bots', 'Also keep bot users and apps.', false)],
    guide: {
      prerequisites: ['A Slack workspace where you may install apps (or an admin approves it).'],
      grant: ['At api.slack.com/apps choose Create New App → From scratch, pick the workspace.', 'Under OAuth & Permissions → Bot Token Scopes add users:read and users:read.email, then Install to Workspace.', 'Copy the Bot User OAuth Token (xoxb-…).'],
      collects: ['Members from users.list: id, team, handle, real and display name, e-mail (with users:read.email), title, time zone, admin, owner, restricted (guest), deleted, bot flags, last profile update.'],
      troubleshooting: [['"invalid_auth" or "not_authed"', 'The token was revoked or the app uninstalled; Slack answers HTTP 200 with ok: false, which Cartograph reports as this error.'], ['"missing_scope"', 'Add users:read (and users:read.email) and reinstall the app.'], ['HTTP 429 ratelimited', 'users.list is Tier 2 (about 20 calls per minute); Cartograph waits for Retry-After.']],
    },
  },
  {
    slug: 'box', name: 'Box', vendor: 'Box', website: 'https://www.box.com', docs_url: 'https://developer.box.com/reference/get-users/',
    description: 'Managed users of a Box enterprise, with role, status and storage use.',
    groups: ['collaboration'], categories: ['user'], engine: 'http',
    location: [apiUrl('https://api.box.com', 'The Box API root (token requests go to <API URL>/oauth2/token).'), text('enterprise_id', 'Enterprise ID', 'Your Box Enterprise ID (Admin Console → Account & Billing → Account Information).', ['123456789'])],
    auth: [clientCredentialsAuth({ title: 'Client Credentials Grant app', description: 'Token from https://api.box.com/oauth2/token with box_subject_type=enterprise.', idDescription: 'The Client ID of a Platform App using Server Authentication (Client Credentials Grant).', idExample: 'abc123def456ghi789jkl012mno345pq', secretDescription: 'The Client Secret of that app (shown after two-factor verification).' })],
    guide: {
      prerequisites: ['A Box Business (or above) enterprise and Admin or Co-Admin rights to authorise apps.'],
      grant: ['In the Developer Console create a Platform App with Server Authentication (Client Credentials Grant), App Access Level App + Enterprise Access.', 'Under Application Scopes tick Manage users (read is enough for the list; Box has no separate read scope).', 'In the Admin Console open Integrations → Platform Apps Manager → Add Platform App with the Client ID, and authorise it.'],
      collects: ['Users from /2.0/users: id, name, login (e-mail), status, role (admin, coadmin, user), job title, created and modified, language, time zone, space used and allowed.'],
      troubleshooting: [['400 "unauthorized_client" on token', 'The app is not authorised in the Admin Console, or changes to scopes were not re-authorised.'], ['403 "access_denied_insufficient_permissions"', 'Enable App + Enterprise Access and the Manage users scope.']],
    },
  },
  {
    slug: 'aha', name: 'Aha!', vendor: 'Aha! Labs', website: 'https://www.aha.io', docs_url: 'https://www.aha.io/api/resources/users/list_users_in_an_account',
    description: 'Users of an Aha! account, with roles, paid seat and last access.',
    groups: ['collaboration'], categories: ['user'], engine: 'http',
    location: [baseUrl('Your Aha! account URL: https://<company>.aha.io.', 'https://acme.aha.io', 'Account URL')],
    auth: [tokenAuth({ type: 'api_key', title: 'API key', description: 'Sent as a Bearer token.', field: 'api_key', fieldTitle: 'API key', fieldDescription: 'A key from Settings → Personal → Developer → API keys → Generate API key.', example: '0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9' })],
    guide: {
      prerequisites: ['An Aha! account; listing all users needs an account administrator.'],
      grant: ['Sign in as a user with the Customization or Billing administrator role (account-level user listing), then Settings → Personal → Developer → API keys → Generate API key.'],
      collects: ['Users from /api/v1/users: id, name, e-mail, created, updated, last accessed, enabled, paid seat, administrator flags, product roles, identity provider.'],
      troubleshooting: [['401', 'The key was revoked, or the URL is not your account subdomain.'], ['403', 'The key\'s user is not an account administrator.']],
    },
  },
  {
    slug: 'zoom', name: 'Zoom', vendor: 'Zoom', website: 'https://zoom.us', docs_url: 'https://developers.zoom.us/docs/api/users/',
    description: 'Users of a Zoom account (and Zoom Rooms devices).',
    groups: ['collaboration'], categories: ['user', 'device'], engine: 'http',
    location: [apiUrl('https://api.zoom.us', 'The Zoom API root (the token comes from https://zoom.us/oauth/token, or <API URL>/oauth/token for another root).'), text('account_id', 'Account ID', 'The Account ID of the Server-to-Server OAuth app (App Credentials page).', ['AbCdEfGhIjKlMnOpQrStUv'])],
    auth: [clientCredentialsAuth({ title: 'Server-to-Server OAuth app', description: 'Token from https://zoom.us/oauth/token with grant_type=account_credentials.', idDescription: 'The Client ID of the app.', idExample: 'AbCdEfGhIjKlMnOp', secretDescription: 'The Client Secret of the app.' })],
    guide: {
      prerequisites: ['A Zoom account administrator with the Server-to-Server OAuth app permission.'],
      grant: ['In the Zoom App Marketplace choose Develop → Build App → Server-to-Server OAuth App.', 'Add the scopes user:read:list_users:admin (and room:read:list_rooms:admin for Zoom Rooms), then Activate.'],
      collects: ['Users from /v2/users: id, e-mail, names, type (basic, licensed), role, status, department, employee id, created, last login, last client version; Zoom Rooms from /v2/rooms as devices.'],
      troubleshooting: [['"Invalid access token, does not contain scopes"', 'Add the scope and reactivate the app.']],
    },
  },
  {
    slug: 'dropbox', name: 'Dropbox Business', vendor: 'Dropbox', website: 'https://www.dropbox.com/business', docs_url: 'https://www.dropbox.com/developers/documentation/http/teams',
    description: 'Team members and their linked devices from a Dropbox team.',
    groups: ['collaboration'], categories: ['user', 'device'], engine: 'http',
    location: [apiUrl('https://api.dropboxapi.com', 'The Dropbox API root.')],
    auth: [{ type: 'oauth2_refresh_token', title: 'Team app (refresh token)', description: 'A scoped team app; the refresh token is exchanged at https://api.dropboxapi.com/oauth2/token.', fields: [text('app_key', 'App key', 'The App key of the scoped app (Team access).', ['a1b2c3d4e5f6g7h']), { name: 'app_secret', required: true, secretExample: 'z9y8x7w6v5u4t3s', schema: { type: 'string', minLength: 1, title: 'App secret', description: 'The App secret.', 'x-secret': true } }, { name: 'refresh_token', required: true, secretExample: 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', schema: { type: 'string', minLength: 1, title: 'Refresh token', description: 'The refresh token obtained by a team admin authorising the app (token_access_type=offline).', 'x-secret': true } }] }],
    guide: {
      prerequisites: ['A Dropbox team (Business/Advanced) and a team admin to authorise the app.'],
      grant: ['At dropbox.com/developers create a Scoped access app with Full Dropbox and team scopes members.read and sessions.list (for linked devices).', 'A team admin authorises it once with token_access_type=offline; keep the refresh token.'],
      collects: ['Members from /2/team/members/list_v2: team member id, e-mail, names, status, roles, joined, external id; linked desktop and mobile clients from /2/team/devices/list_members_devices (host or device name, IP, platform, client version, last activity) with their member.'],
      troubleshooting: [['"missing_scope"', 'Add members.read and reauthorise.']],
    },
  },
  {
    slug: 'github', name: 'GitHub', vendor: 'GitHub (Microsoft)', website: 'https://github.com', docs_url: 'https://docs.github.com/rest/orgs/members',
    description: 'Members and outside collaborators of a GitHub organisation, with two-factor status.',
    groups: ['collaboration', 'devops'], categories: ['user'], engine: 'http',
    location: [baseUrl('The API URL: https://api.github.com, or https://<host>/api/v3 for GitHub Enterprise Server.', 'https://api.github.com', 'API URL'), text('organization', 'Organization', 'The organisation login.', ['acme'])],
    auth: [tokenAuth({ title: 'Fine-grained personal access token', description: 'Sent as a Bearer token.', fieldTitle: 'Access token', field: 'access_token', fieldDescription: 'A fine-grained token owned by an organisation owner, resource owner the organisation, with Members: Read-only.', example: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTU' })],
    guide: {
      prerequisites: ['An organisation owner (2FA status of members is visible to owners only).'],
      grant: ['Settings → Developer settings → Fine-grained tokens → Generate new token: resource owner = the organisation, Organization permissions → Members: Read-only.', 'If the organisation requires approval of fine-grained tokens, approve it under the organisation\'s Personal access tokens settings.'],
      collects: ['Members from /orgs/{org}/members (role, 2FA disabled filter), outside collaborators, and each user\'s login, id, name, e-mail (public), type, site admin.'],
      troubleshooting: [['403 "Resource not accessible by personal access token"', 'The token lacks Members: Read-only or awaits approval.']],
    },
  },
  {
    slug: 'gitlab', name: 'GitLab', vendor: 'GitLab', website: 'https://about.gitlab.com', docs_url: 'https://docs.gitlab.com/api/users/',
    description: 'Users (self-managed) or group members (GitLab.com) from GitLab.',
    groups: ['collaboration', 'devops'], categories: ['user'], engine: 'http',
    location: [baseUrl('The GitLab URL: https://gitlab.com or your self-managed instance.', 'https://gitlab.corp.example.com', 'GitLab URL'), text('group', 'Group', 'GitLab.com only: the top-level group whose members are read; leave empty on self-managed to list all users.', ['acme'], { required: false })],
    auth: [tokenAuth({ title: 'Access token', description: 'Sent in the PRIVATE-TOKEN header.', fieldTitle: 'Access token', field: 'access_token', fieldDescription: 'A personal, group or service-account token with the read_api scope (read_user is enough for /users).', example: 'glpat-AbCdEfGhIjKlMnOpQrSt' })],
    guide: {
      prerequisites: ['Self-managed: an administrator token to see e-mails, last sign-in and 2FA; GitLab.com: a group Owner.'],
      grant: ['Create a group access token (Group → Settings → Access tokens) with role Reporter and scope read_api, or an administrator personal token with read_api.'],
      collects: ['Users from /api/v4/users (or /groups/{id}/members/all): username, name, e-mail, state, admin, bot, 2FA enabled, created, last sign-in, last activity.'],
      troubleshooting: [['403 "insufficient_scope"', 'The token needs read_api.']],
    },
  },
  {
    slug: 'bitbucket', name: 'Bitbucket Cloud', vendor: 'Atlassian', website: 'https://bitbucket.org', docs_url: 'https://developer.atlassian.com/cloud/bitbucket/rest/api-group-workspaces/',
    description: 'Members of a Bitbucket Cloud workspace.',
    groups: ['collaboration', 'devops'], categories: ['user'], engine: 'http',
    location: [apiUrl('https://api.bitbucket.org', 'The Bitbucket Cloud API root.'), text('workspace', 'Workspace', 'The workspace ID (slug).', ['acme'])],
    auth: [keyPairAuth({ type: 'api_token', title: 'E-mail and API token', description: 'HTTP Basic with the Atlassian account e-mail and an API token with scopes.', idName: 'email', idTitle: 'Atlassian account e-mail', idDescription: 'The e-mail of the Atlassian account.', idExample: 'cartograph@acme.com', secretName: 'api_token', secretTitle: 'API token', secretDescription: 'An API token with the read:workspace:bitbucket and read:user:bitbucket scopes.' })],
    guide: {
      prerequisites: ['A member of the workspace.'],
      grant: ['At id.atlassian.com → Security → Create API token with scopes, choose Bitbucket and the scopes read:workspace:bitbucket and read:user:bitbucket.'],
      collects: ['Members from /2.0/workspaces/{workspace}/members: account id, UUID, display name, nickname.'],
      troubleshooting: [['401', 'Use the account e-mail, not the Bitbucket username.']],
    },
  },
  {
    slug: 'salesforce', name: 'Salesforce', vendor: 'Salesforce', website: 'https://www.salesforce.com', docs_url: 'https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/',
    description: 'Users of a Salesforce org (licence, profile, last login).',
    groups: ['collaboration'], categories: ['user'], engine: 'http',
    location: [baseUrl('Your My Domain URL: https://<mydomain>.my.salesforce.com.', 'https://acme.my.salesforce.com', 'My Domain URL')],
    auth: [clientCredentialsAuth({ title: 'Connected app (client credentials)', description: 'Token from /services/oauth2/token with the client-credentials flow enabled on the app.', idDescription: 'The Consumer Key of the connected app.', idExample: '3MVG9Abc.defGhIjKlMnOpQrStUvWxYz0123456789', secretDescription: 'The Consumer Secret of the connected app.' })],
    guide: {
      prerequisites: ['Salesforce Enterprise edition or above (API access).'],
      grant: ['Setup → App Manager → New Connected App (or External Client App): enable OAuth, scope api, Enable Client Credentials Flow.', 'In Manage → Edit Policies set Run As to an integration user with the Salesforce Integration licence and View Setup and Configuration.'],
      collects: ['Users via SOQL (SELECT Id, Username, Email, Name, FirstName, LastName, IsActive, Profile.Name, UserType, Department, EmployeeNumber, FederationIdentifier, LastLoginDate, CreatedDate FROM User).'],
      troubleshooting: [['"invalid_grant: no client credentials user enabled"', 'Set the Run As user of the client-credentials flow.']],
    },
  },
];
