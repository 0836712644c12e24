import type { AdminCompany } from './session';

export type AdminsResponse = {
  public: { id: number; name: string; domain: string } | null;
  results: { company: number; company_name: string; company_domain: string | null }[];
};

/**
 * The admin companies list of spec §3: the public company plus each results entry (company, company_name,
 * company_domain), skipping empty domains, de-duplicated by id (first kept), sorted by id.
 * Before: public {1,'Provider'}, results [{company: 3, ...}, {company: 2, company_domain: ''}]; after: [1, 3].
 */
export function buildAdminCompanies(answer: AdminsResponse): AdminCompany[] {
  const entries: AdminCompany[] = [
    ...(answer.public ? [{ id: answer.public.id, name: answer.public.name, domain: answer.public.domain }] : []),
    ...(answer.results ?? [])
      .filter((entry) => Boolean(entry.company_domain))
      .map((entry) => ({ id: entry.company, name: entry.company_name, domain: entry.company_domain as string })),
  ];
  const byId = new Map<number, AdminCompany>();
  for (const entry of entries) if (!byId.has(entry.id)) byId.set(entry.id, entry);
  return [...byId.values()].sort((left, right) => left.id - right.id);
}
