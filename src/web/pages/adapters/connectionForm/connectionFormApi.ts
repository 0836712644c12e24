import { loadAdapterMessages, t } from '../../../app/i18n/messages';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../app/http';
import { localizedSchema } from '../../../renderers/schema/localizedSchema';
import type { SchemaNode } from './schemaCheck';

/** One adapter as `GET /adapters/adapters/{slug}` answers it; `can_fetch` is false while Cartograph has no engine for it. */
export type AdapterResponse = {
  id: string; name: string; slug: string; description: string; can_fetch: boolean; engine: string | null; status: number;
  /** The adapter whose connection schema its connections use: its own, or for a custom adapter the CSV file adapter's. */
  connection_schema?: string; custom?: boolean;
};
export type ConnectorRow = { id: number; name: string; is_default: boolean };

export const adapterQuery = (slug: string) =>
  queryOptions({ queryKey: ['adapter', slug], queryFn: () => apiFetch<AdapterResponse>(`/adapters/adapters/${encodeURIComponent(slug)}`) });

export const connectorsQuery = () =>
  queryOptions({
    queryKey: ['connectors', { size: 1000 }],
    queryFn: () => apiFetch<{ results: ConnectorRow[] }>('/connectors/connectors', { query: { size: 1000 } }),
    staleTime: 60_000,
  });

// Each adapter's connection schema is its own chunk, fetched when its form opens (the catalogue is 170 schemas).
const schemaFiles = import.meta.glob<SchemaNode>('../../../../../schemas/adapters/*/connection.schema.json', { import: 'default' });

export const connectionSchemaLoader = (slug: string) => schemaFiles[`../../../../../schemas/adapters/${slug}/connection.schema.json`];

export const connectionSchemaQuery = (slug: string) =>
  queryOptions({
    queryKey: ['adapter-connection-schema', slug],
    queryFn: async () => {
      const load = connectionSchemaLoader(slug);
      if (!load) throw new Error(t('adapters.adapterHasNoConnectionSchema', { slug }));
      // The form's texts are in the adapters' message file, fetched with the first connection form opened.
      const [schema] = await Promise.all([load(), loadAdapterMessages()]);
      return localizedSchema(schema);
    },
    staleTime: Infinity,
  });

/** Why a connectivity check failed, in words (the server's ConnectivityFailureReason codes). */
export const failureReasons: Record<string, string> = {
  get invalid_config() { return t('adapters.settingsNotValid'); },
  get dns() { return t('adapters.hostNameDoesNot'); },
  get refused() { return t('adapters.connectionWasRefused'); },
  get tls() { return t('adapters.tlsHandshakeCertificateFailed'); },
  get timeout() { return t('adapters.noAnswerBeforeTimeout'); },
  get unauthorized() { return t('adapters.credentialsWereRefused401'); },
  get forbidden() { return t('adapters.accountLacksPermission403'); },
  get http() { return t('adapters.serverAnsweredHttpError'); },
  get protocol() { return t('adapters.serverAnsweredSomethingUnexpected'); },
  get connector_offline() { return t('adapters.remoteConnectorOffline'); },
  get connector_error() { return t('adapters.remoteConnectorCouldNotTest'); },
};
