import { choice, text, url, type Field } from '../model.js';

/** The usual "where is it" field: the base URL of a self-hosted console or a tenant. */
export function baseUrl(description: string, example: string, title = 'Base URL'): Field {
  return url('base_url', title, description, example);
}

/** A region or cloud selector whose values are the vendor's own API hosts. */
export function apiHost(description: string, hosts: string[], title = 'Region'): Field {
  return choice('base_url', title, description, hosts);
}

/** A port number field with the vendor's default. */
export function port(defaultPort: number, description: string): Field {
  return { name: 'port', schema: { type: 'integer', title: 'Port', description, minimum: 1, maximum: 65535, default: defaultPort, examples: [defaultPort] }, required: false };
}

/** A tenant, organisation or account identifier the vendor shows in its console. */
export function tenantId(name: string, title: string, description: string, example: string, required = true): Field {
  const field = text(name, title, description, [example]);
  field.required = required;
  if (!required) delete field.schema.minLength;
  return field;
}

/**
 * The API root of a cloud service that has one public host: optional, defaulting to the vendor's host. It is changed
 * only for a sovereign instance or an API gateway in front of the vendor (and by the replay fixtures).
 */
export function apiUrl(defaultUrl: string, description: string): Field {
  return url('base_url', 'API URL', `${description} Keep the default (${defaultUrl}) unless your traffic to the vendor goes through an API gateway.`, defaultUrl, { required: false, default: defaultUrl });
}

/** Optional sign-in and Graph hosts for a custom Microsoft environment; empty means the hosts of the chosen cloud. */
export function microsoftHosts(): Field[] {
  return [
    url('login_url', 'Sign-in host', 'Only for a custom environment or a gateway: the Entra sign-in root, e.g. https://login.microsoftonline.com. Leave empty to use the host of the chosen cloud.', 'https://login.microsoftonline.com', { required: false }),
    url('graph_url', 'Microsoft Graph host', 'Only for a custom environment or a gateway: the Microsoft Graph root, e.g. https://graph.microsoft.com. Leave empty to use the host of the chosen cloud.', 'https://graph.microsoft.com', { required: false }),
  ];
}
