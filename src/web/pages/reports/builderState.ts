import { emptyReport, reportFormats, type ReportDraft, type ReportSection, type SectionType } from './reportsApi';

// The builder's state lives in the URL (`/reports/builder?step=builder&reportId=3&draft={...}`): a reload, back and
// a copied link show the same step with the same unsaved work.

export const builderSteps = ['define', 'configure', 'builder'] as const;
export type BuilderStep = (typeof builderSteps)[number];
export type BuilderState = { step: BuilderStep; reportId: number | null; draft: ReportDraft | null };
type Search = Record<string, unknown>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A draft read back from the URL: known fields of the right type kept, everything else from the defaults. */
export function draftOfSearch(value: unknown): ReportDraft | null {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!isRecord(parsed)) return null;
  const record = parsed;
  const defaults = emptyReport();
  const same = <K extends keyof ReportDraft>(key: K): ReportDraft[K] => (typeof record[key] === typeof defaults[key] ? (record[key] as ReportDraft[K]) : defaults[key]);
  return {
    name: same('name'), description: same('description'), is_public: same('is_public'),
    format: reportFormats.includes(parsed.format as never) ? (parsed.format as ReportDraft['format']) : defaults.format,
    page_size: ['A4', 'Letter', 'A3'].includes(parsed.page_size as string) ? (parsed.page_size as ReportDraft['page_size']) : defaults.page_size,
    orientation: parsed.orientation === 'landscape' ? 'landscape' : 'portrait',
    show_company: same('show_company'), show_logo: same('show_logo'), time_zone: same('time_zone'),
    index_id: typeof parsed.index_id === 'number' ? parsed.index_id : null,
    sections: Array.isArray(parsed.sections) ? (parsed.sections.filter((section) => isRecord(section) && typeof section.type === 'string') as ReportSection[]) : [],
  };
}

export function builderStateOf(search: Search): BuilderState {
  const step = builderSteps.includes(search.step as BuilderStep) ? (search.step as BuilderStep) : 'define';
  const id = Number(search.reportId);
  return { step, reportId: Number.isInteger(id) && id > 0 ? id : null, draft: draftOfSearch(search.draft) };
}

/** The search parameters of a state (the router writes the draft as one JSON value). */
export function searchOfState(state: { step: BuilderStep; reportId: number | null; draft: ReportDraft }): Search {
  return { step: state.step, ...(state.reportId !== null && { reportId: state.reportId }), draft: state.draft };
}

/** A new section of a type, with what the server would default it to. */
export function newSection(type: SectionType): ReportSection {
  if (type === 'text') return { type, title: '', markdown: '' };
  if (type === 'chart') return { type, title: '', widget: { kind: 'group_by', inventory: 'device', field: 'OS.Type', limit: 10 } };
  return { type, title: '', inventory: 'device', query: '', saved_query: null, columns: ['Hostname', 'OS.Type', 'LastSeen'], sort: [], limit: null, ...(type === 'comparison' && { compare_to: null }) };
}

/** The sections with one moved up (-1) or down (+1). */
export function moveSection(sections: ReportSection[], index: number, by: -1 | 1): ReportSection[] {
  const target = index + by;
  if (target < 0 || target >= sections.length) return sections;
  const next = [...sections];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

/** Field errors of one section (`sections.2.query` → `query`), from the server's answer. */
export function sectionErrors(errors: Record<string, string[]>, index: number): Record<string, string[]> {
  const prefix = `sections.${index}.`;
  return Object.fromEntries(Object.entries(errors).filter(([key]) => key.startsWith(prefix)).map(([key, messages]) => [key.slice(prefix.length), messages]));
}
