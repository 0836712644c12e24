import { choice, secret, text, type AuthVariant, type Field } from './model.js';

/**
 * Authentication variants many vendors share. Each builder takes the vendor's own wording (what the token is
 * called in that console, where it is created) so the form speaks the vendor's language.
 */

/** A single static token sent in a header (Bearer, SSWS, ApiToken, X-Api-Key...). */
export function tokenAuth(options: { type?: string; title: string; description: string; field?: string; fieldTitle: string; fieldDescription: string; example: string }): AuthVariant {
  return {
    type: options.type ?? 'api_token',
    title: options.title,
    description: options.description,
    fields: [secret(options.field ?? 'api_token', options.fieldTitle, options.fieldDescription, options.example)],
  };
}

/** User name and password (HTTP Basic, a session login, or a bind), with the vendor's words for both. */
export function passwordAuth(options: { type?: string; title: string; description: string; userTitle?: string; userDescription: string; userExample: string; passwordDescription: string; extra?: Field[] }): AuthVariant {
  return {
    type: options.type ?? 'basic',
    title: options.title,
    description: options.description,
    fields: [
      text('username', options.userTitle ?? 'Username', options.userDescription, [options.userExample]),
      secret('password', 'Password', options.passwordDescription, 'correct-horse-battery-staple'),
      ...(options.extra ?? []),
    ],
  };
}

/** OAuth 2.0 client credentials issued by the vendor itself (token URL derived from the base URL or region). */
export function clientCredentialsAuth(options: { title?: string; description: string; idTitle?: string; idDescription: string; idExample: string; secretTitle?: string; secretDescription: string; extra?: Field[] }): AuthVariant {
  return {
    type: 'oauth2_client_credentials',
    title: options.title ?? 'OAuth 2.0 client credentials',
    description: options.description,
    fields: [
      text('client_id', options.idTitle ?? 'Client ID', options.idDescription, [options.idExample]),
      secret('client_secret', options.secretTitle ?? 'Client secret', options.secretDescription, 'example-client-secret-value'),
      ...(options.extra ?? []),
    ],
  };
}

/** A pair of key halves (access/secret key, key id/key) that the vendor issues together. */
export function keyPairAuth(options: { type?: string; title: string; description: string; idName: string; idTitle: string; idDescription: string; idExample: string; secretName: string; secretTitle: string; secretDescription: string }): AuthVariant {
  return {
    type: options.type ?? 'api_key_pair',
    title: options.title,
    description: options.description,
    fields: [
      text(options.idName, options.idTitle, options.idDescription, [options.idExample]),
      secret(options.secretName, options.secretTitle, options.secretDescription, 'example-secret-key-value'),
    ],
  };
}

/** A Microsoft Entra ID app registration (client credentials against login.microsoftonline.com or a national cloud). */
export function entraAppAuth(resourceNote: string): AuthVariant {
  return {
    type: 'entra_client_secret',
    title: 'Entra ID app registration (client secret)',
    description: `An app registration in Microsoft Entra ID using the client-credentials flow. ${resourceNote}`,
    fields: [
      text('tenant_id', 'Directory (tenant) ID', 'The Directory (tenant) ID shown on the app registration\'s Overview page in the Entra admin center, or a verified domain of the tenant.', ['72f988bf-86f1-41af-91ab-2d7cd011db47']),
      text('client_id', 'Application (client) ID', 'The Application (client) ID shown on the app registration\'s Overview page.', ['0c1a2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'], { format: 'uuid' }),
      secret('client_secret', 'Client secret', 'The secret Value (not the Secret ID) created under Certificates & secrets; it is shown once, when created.', 'Xy8Q~example.client.secret.value'),
    ],
  };
}

/** The Microsoft cloud the tenant lives in; decides the sign-in and API hosts. */
export function microsoftCloud(): Field {
  return choice('cloud', 'Microsoft cloud', 'Which Microsoft cloud the tenant belongs to: global (commercial and GCC), US Government (GCC High and DoD) or China (operated by 21Vianet).', ['global', 'us_government', 'china']);
}

/** A Google Cloud service-account key (JSON) with optional domain-wide delegation. */
export function googleServiceAccountAuth(options: { description: string; impersonate: boolean }): AuthVariant {
  const fields: Field[] = [
    secret('service_account_json', 'Service account key (JSON)', 'The whole JSON key file downloaded for the service account (IAM & Admin → Service accounts → Keys → Add key → JSON).', '{"type":"service_account","client_email":"cartograph@acme-prod.iam.gserviceaccount.com","private_key":"-----BEGIN PRIVATE KEY-----\\n...\\n-----END PRIVATE KEY-----\\n"}', { widget: 'textarea' }),
  ];
  if (options.impersonate) {
    fields.push(text('admin_email', 'Administrator to impersonate', 'A Google Workspace administrator the service account acts as through domain-wide delegation.', ['it-admin@example.com'], { format: 'email' }));
  }
  return { type: 'google_service_account', title: 'Service account key', description: options.description, fields };
}
