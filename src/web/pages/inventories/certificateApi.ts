import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';

/** One place (host, port, SNI) where a certificate is served, or the device it is installed on (`installed`), with the device behind it (`GET /certificates/places`). */
export type CertificatePlace = {
  certificate_id: string; certificate_name: string | null; host: string; port: number | null; sni: string | null; device_id: string | null; device_name: string | null;
  chain: string[]; chain_verified: boolean | null; verification_error: string | null; tls_version: string | null; adapter: string; installed: boolean; index_id: number;
};

/** One link of a certificate's chain, leaf first, as the snapshot knows it. */
export type ChainLink = { position: number; fingerprint_sha256: string; id: string | null; name: string | null; issuer: string | null; not_after: string | null; expiry_status: string | null; self_signed: boolean | null };

export type CertificatePlaceFilter = { certificate?: string; device?: string; search?: string; index_id?: number | null; page: number; size: number };

export const certificatePlacesQuery = (filter: CertificatePlaceFilter) =>
  queryOptions({
    queryKey: ['certificate-places', filter],
    queryFn: () => apiFetch<{ count: number; results: CertificatePlace[] }>('/certificates/places', { query: { ...filter, search: filter.search || undefined, index_id: filter.index_id ?? undefined } }),
    placeholderData: keepPreviousData,
  });

/** A custom certificate as the API answers it: its own fields and its leaf certificate read. */
export type CustomCertificate = {
  id: number; name: string; description: string; common_name: string | null; subject: string | null; issuer: string | null; serial_number: string | null;
  subject_alt_names: string[]; not_before: string | null; not_after: string | null; expiry_status: string | null; key_algorithm: string | null; key_size: number | null;
  signature_algorithm: string | null; weaknesses: string[]; self_signed: boolean | null; is_ca: boolean | null; fingerprint_sha256: string; fingerprint_sha1: string;
  chain_verified: boolean; verification_error: string | null; certificate_count: number;
  chain: { common_name: string | null; subject: string | null; issuer: string | null; not_after: string | null; fingerprint_sha256: string }[];
  pem: string; created_by: string | null; created_at: string; updated_at: string;
};
export type CustomCertificateBody = { name: string; description: string; certificate?: string; password?: string; file_name?: string };

export const customCertificatesQuery = (params: { page: number; size: number; search: string }) =>
  queryOptions({
    queryKey: ['custom-certificates', params],
    queryFn: () => apiFetch<{ count: number; results: CustomCertificate[] }>('/certificates/custom-certificates', { query: { ...params, search: params.search || undefined } }),
    placeholderData: keepPreviousData,
  });

export const customCertificateQuery = (id: number) =>
  queryOptions({ queryKey: ['custom-certificates', 'one', id], queryFn: () => apiFetch<CustomCertificate>(`/certificates/custom-certificates/${id}`) });

export const saveCustomCertificate = (id: number | null, body: CustomCertificateBody) =>
  apiFetch<CustomCertificate>(id ? `/certificates/custom-certificates/${id}` : '/certificates/custom-certificates', { method: id ? 'PUT' : 'POST', body, silent: true });

export const deleteCustomCertificate = (id: number) => apiFetch<void>(`/certificates/custom-certificates/${id}`, { method: 'DELETE' });
