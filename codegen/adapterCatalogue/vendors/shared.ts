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
