import { apiFetch, apiUpload } from '../../../app/http';
import { loadAdapters } from '../../../app/session/startup';
import { getSession, updateSession } from '../../../app/session/session';

export const customFieldTypes = ['string', 'integer', 'number', 'boolean', 'date', 'ip', 'mac'] as const;
export type CustomFieldType = (typeof customFieldTypes)[number];
export const customEntities = ['device', 'user', 'software', 'vulnerability', 'certificate', 'service', 'license'] as const;
export type CustomEntity = (typeof customEntities)[number];
export const adapterCategories = ['device', 'user', 'application', 'vulnerability', 'certificate', 'service'] as const;

/** One column of a custom adapter: its type, the entity field it feeds (null: kept raw only), and whether it identifies. */
export type CustomFieldFormData = { column: string; type: CustomFieldType; field: string | null; identifier: boolean };

export type CustomAdapterResponse = {
  id: number; name: string; slug: string; description: string; categories: string[]; entity: CustomEntity; file_type: 'csv' | 'xlsx'; delimiter: string;
  fields: CustomFieldFormData[]; connection_count: number; custom: true; status: number;
};
export type CustomAdapterFormData = Pick<CustomAdapterResponse, 'name' | 'description' | 'categories' | 'entity' | 'file_type' | 'delimiter' | 'fields'>;
export type SampleResponse = { file_name: string; entity: CustomEntity; file_type: 'csv' | 'xlsx'; delimiter: string; columns: CustomFieldFormData[]; preview: Record<string, unknown>[]; rows_read: number };
export type EntityFieldsResponse = { entities: Record<CustomEntity, { fields: string[]; identifiers: string[] }>; categories: Record<CustomEntity, string> };
export type DataUploadResponse = { adapter: number; connection: number; created: boolean; file_name: string; size: number; columns: string[] };

export const customAdapterListPath = '/settings/custom-adapter';
export const customAdaptersKey = ['customs', 'adapters'] as const;

export const listCustomAdapters = () => apiFetch<{ count: number; results: CustomAdapterResponse[] }>('/customs/adapters', { query: { page: 1, size: 1000 } });
export const readCustomAdapter = (id: string) => apiFetch<CustomAdapterResponse>(`/customs/adapters/${encodeURIComponent(id)}`);
export const readEntityFields = () => apiFetch<EntityFieldsResponse>('/customs/adapters/entity-fields');
export const deleteCustomAdapter = (id: number) => apiFetch<void>(`/customs/adapters/${id}`, { method: 'DELETE' });
export const uploadSample = (file: File, entity: CustomEntity, onProgress?: (share: number) => void) =>
  apiUpload<SampleResponse>(`/customs/adapters/fields?entity=${encodeURIComponent(entity)}`, file, { onProgress, silent: true });
export const uploadData = (adapterId: number, file: File, onProgress?: (share: number) => void) =>
  apiUpload<DataUploadResponse>(`/customs/adapters/${adapterId}/data`, file, { onProgress, silent: true });

/** Saves the adapter, then reloads the session's adapters so the adapters page lists it at once. */
export async function saveCustomAdapter(id: string | null, body: CustomAdapterFormData): Promise<CustomAdapterResponse> {
  const saved = id
    ? await apiFetch<CustomAdapterResponse>(`/customs/adapters/${encodeURIComponent(id)}`, { method: 'PUT', body, silent: true })
    : await apiFetch<CustomAdapterResponse>('/customs/adapters', { method: 'POST', body, silent: true });
  await refreshSessionAdapters();
  return saved;
}

export async function refreshSessionAdapters(): Promise<void> {
  const { user, decoded } = getSession();
  if (user) updateSession({ adapters: await loadAdapters(user, decoded?.adapters) });
}
