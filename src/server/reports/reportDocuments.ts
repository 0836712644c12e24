import type { Report, ReportSchedule } from '../../generated/types.js';
import type { Queryable } from '../db/database.js';

export const reportKind = 'cartograph:entities/report';
export const reportScheduleKind = 'cartograph:entities/report-schedule';

type Section = NonNullable<Report['sections']>[number];
/** A section with the schema's defaults filled in. */
export type ReportSection = Required<Omit<Section, 'widget'>> & { widget?: Section['widget'] };
/** A report as stored: the schema's fields with defaults, and its owner. */
export type ReportDocument = Required<Omit<Report, 'id' | 'created_at' | 'updated_at' | 'sections' | 'owner_id' | 'user_full_name'>> & {
  sections: ReportSection[]; owner_id?: number; user_full_name?: string;
};
export type ReportFormat = 'pdf' | 'xlsx' | 'csv';
export type ScheduleDocument = Required<Omit<ReportSchedule, 'id' | 'created_at' | 'updated_at'>>;

const sectionDefaults: Omit<ReportSection, 'type'> = { title: '', inventory: 'device', query: '', saved_query: null, columns: [], sort: [], limit: null, markdown: '', compare_to: null };

/** A report body with every default filled in, so the rest of the code reads no optional field. */
export function reportDocumentOf(body: Report, owner?: { owner_id?: number; user_full_name?: string }): ReportDocument {
  return {
    name: body.name, description: body.description ?? '', is_public: body.is_public ?? false, format: body.format ?? 'pdf', page_size: body.page_size ?? 'A4',
    orientation: body.orientation ?? 'portrait', show_company: body.show_company ?? true, show_logo: body.show_logo ?? true, time_zone: body.time_zone ?? 'UTC', index_id: body.index_id ?? null,
    sections: (body.sections ?? []).map((section) => ({ ...sectionDefaults, ...section }) as ReportSection),
    ...(owner?.owner_id !== undefined && { owner_id: owner.owner_id }), ...(owner?.user_full_name !== undefined && { user_full_name: owner.user_full_name }),
  };
}

/** SQL for the reports a caller may see: public ones and their own (placeholders name company and caller). */
export function reportVisibleTo(company: string, caller: string): string {
  return `kind = '${reportKind}' and company_id = ${company} and (coalesce((document->>'is_public')::boolean, false) or (document->>'owner_id')::int = ${caller})`;
}

export type StoredReport = { id: number; document: ReportDocument; created_at: Date; updated_at: Date };

/** A report the caller may see, or null. */
export async function loadVisibleReport(db: Queryable, companyId: number, userId: number, id: number): Promise<StoredReport | null> {
  const [row] = await db.query<StoredReport>(`select id, document, created_at, updated_at from resources where id = $1 and ${reportVisibleTo('$2', '$3')}`, [id, companyId, userId]);
  return row ? { ...row, document: reportDocumentOf(row.document, row.document) } : null;
}

/** A report of the company whoever owns it (schedules and jobs run it on their owner's behalf). */
export async function loadCompanyReport(db: Queryable, companyId: number, id: number): Promise<StoredReport | null> {
  const [row] = await db.query<StoredReport>('select id, document, created_at, updated_at from resources where kind = $1 and company_id = $2 and id = $3', [reportKind, companyId, id]);
  return row ? { ...row, document: reportDocumentOf(row.document, row.document) } : null;
}
