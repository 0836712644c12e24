import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { ApiError, apiFetch } from '../../app/http';
import { t } from '../../app/i18n/messages';
import { navigateTo } from '../../app/navigation';
import { notify } from '../../app/notifications/notifications';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Button, ButtonLink, Checkbox, ErrorState, PageHeader, Select, Spinner, Tabs, Textarea, TextInput } from '../../ui';
import { builderStateOf, builderSteps, moveSection, newSection, searchOfState, sectionErrors, type BuilderStep } from './builderState';
import { ReportLogoField } from './ReportLogoField';
import { ReportPreviewPane } from './ReportPreviewPane';
import { draftOf, emptyReport, previewReport, reportFormats, reportQuery, reportsPath, type ReportDraft, type ReportItem, type ReportSection, type SectionType } from './reportsApi';
import { SectionEditor } from './SectionEditor';
import { SnapshotPicker } from './SnapshotPicker';
import { TimeZoneSelect } from './TimeZoneSelect';
import './reports.css';

type Errors = Record<string, string[]>;
const sectionTypes: SectionType[] = ['table', 'chart', 'text', 'comparison'];
const defineFields = ['name', 'description', 'is_public'];

/** The step an error belongs to, so saving a report with a mistake opens the step that shows it. */
const stepOfField = (field: string): BuilderStep => (defineFields.includes(field) ? 'define' : field.startsWith('sections') ? 'builder' : 'configure');

/** The value a moment after it last changed: the preview is asked for when typing pauses, not on every key. */
function useSettled<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

function DefineStep({ draft, change, errors }: { draft: ReportDraft; change: (changes: Partial<ReportDraft>) => void; errors: Errors }) {
  return (
    <div className="report-builder__step">
      <TextInput label={t('reports.builder.name')} value={draft.name} required maxLength={200} onValueChange={(name) => change({ name })} error={errors.name} />
      <Textarea label={t('reports.builder.descriptionField')} value={draft.description} maxLength={2000} onValueChange={(description) => change({ description })} error={errors.description} />
      <Checkbox label={t('reports.builder.public')} message={t('reports.builder.publicHelp')} checked={draft.is_public} onCheckedChange={(is_public) => change({ is_public })} error={errors.is_public} />
    </div>
  );
}

function ConfigureStep({ draft, change, errors }: { draft: ReportDraft; change: (changes: Partial<ReportDraft>) => void; errors: Errors }) {
  return (
    <div className="report-builder__step">
      <Select label={t('reports.builder.format')} value={draft.format} options={reportFormats.map((value) => ({ value, label: value.toUpperCase() }))} onValueChange={(format) => change({ format: format as ReportDraft['format'] })} message={t('reports.builder.formatHelp')} error={errors.format} />
      <Select label={t('reports.builder.pageSize')} value={draft.page_size} options={['A4', 'Letter', 'A3'].map((value) => ({ value, label: value }))} onValueChange={(page_size) => change({ page_size: page_size as ReportDraft['page_size'] })} error={errors.page_size} />
      <Select label={t('reports.builder.orientation')} value={draft.orientation} options={[{ value: 'portrait', label: t('reports.builder.portrait') }, { value: 'landscape', label: t('reports.builder.landscape') }]} onValueChange={(orientation) => change({ orientation: orientation as ReportDraft['orientation'] })} error={errors.orientation} />
      <Checkbox label={t('reports.builder.showCompany')} message={t('reports.builder.showCompanyHelp')} checked={draft.show_company} onCheckedChange={(show_company) => change({ show_company })} error={errors.show_company} />
      <TimeZoneSelect label={t('reports.builder.timeZone')} value={draft.time_zone} onValueChange={(time_zone) => change({ time_zone })} message={t('reports.builder.timeZoneHelp')} error={errors.time_zone} />
      <Checkbox label={t('reports.builder.showLogo')} message={t('reports.builder.showLogoHelp')} checked={draft.show_logo} onCheckedChange={(show_logo) => change({ show_logo })} error={errors.show_logo} />
      {draft.show_logo ? <ReportLogoField /> : null}
      <SnapshotPicker label={t('reports.builder.snapshot')} value={draft.index_id} onChange={(index_id) => change({ index_id })} defaultLabel={t('reports.snapshotPicker.latest')} message={t('reports.builder.snapshotHelp')} error={errors.index_id} />
    </div>
  );
}

/**
 * `/reports/builder` (and `?reportId=` to edit): define, configure, then add and order sections beside a live preview
 * the server computes. The step and the whole draft live in the URL, so a reload loses nothing.
 */
export function ReportBuilder() {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  // Read once: from then on the page writes the URL, it does not follow it.
  const [initial] = useState(() => builderStateOf(search));
  const [step, setStep] = useState<BuilderStep>(initial.step);
  const [draft, setDraft] = useState<ReportDraft | null>(initial.draft ?? (initial.reportId ? null : emptyReport()));
  const [errors, setErrors] = useState<Errors>({});
  const reportId = initial.reportId;
  const stored = useQuery({ ...reportQuery(reportId ?? 0), enabled: reportId !== null && !initial.draft });
  const queryClient = useQueryClient();
  useEffect(() => setBreadcrumb([{ label: t('reports.title'), to: '/reports' }, { label: reportId ? t('reports.builder.editTitle') : t('reports.builder.title') }]), [reportId]);
  useEffect(() => {
    if (stored.data && !draft) setDraft(draftOf(stored.data));
  }, [stored.data, draft]);
  useEffect(() => {
    if (draft) void navigate({ to: '.', search: searchOfState({ step, reportId, draft }) as never, replace: true });
  }, [draft, step, reportId, navigate]);

  const settled = useSettled(draft, 600);
  const previewing = step === 'builder' && settled !== null;
  const preview = useQuery({
    queryKey: ['report-preview', JSON.stringify(settled)],
    queryFn: () => previewReport({ ...(settled as ReportDraft), name: settled?.name || t('reports.builder.untitled') }),
    enabled: previewing,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const previewErrors: Errors = preview.error instanceof ApiError ? preview.error.fieldErrors : {};
  // Errors of a section show on it; others (no snapshot to preview) above the preview, without the field's name.
  const otherPreviewErrors = Object.entries(previewErrors).filter(([key]) => !key.startsWith('sections.')).flatMap(([, messages]) => messages);
  const previewProblem = preview.error ? (otherPreviewErrors.join(' ') || (Object.keys(previewErrors).length ? null : preview.error.message)) : null;

  const save = useMutation({
    mutationFn: (body: ReportDraft) => apiFetch<ReportItem>(reportId ? `${reportsPath}/${reportId}` : reportsPath, { method: reportId ? 'PUT' : 'POST', body, silent: true }),
    onSuccess: (saved) => {
      setErrors({});
      notify('success', t('reports.builder.saved', { name: saved.name }));
      void queryClient.invalidateQueries({ queryKey: ['reports'] });
      navigateTo('/reports');
    },
    onError: (error) => {
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      setErrors(fields);
      const first = Object.keys(fields)[0];
      if (first) setStep(stepOfField(first));
      else notify('error', error.message);
    },
  });

  if (!draft) {
    if (stored.isError) return <ErrorState message={stored.error.message} onRetry={() => void stored.refetch()} />;
    return <Spinner label={t('reports.builder.loading')} />;
  }
  const change = (changes: Partial<ReportDraft>) => setDraft({ ...draft, ...changes });
  const setSections = (sections: ReportSection[]) => {
    setDraft({ ...draft, sections });
    // Errors named by a section's place no longer fit once sections move.
    setErrors(Object.fromEntries(Object.entries(errors).filter(([key]) => !key.startsWith('sections.'))));
  };
  const stepIndex = builderSteps.indexOf(step);
  const errorCount = Object.keys(errors).length;
  const previewSection = (index: number) => {
    const section = preview.data?.sections[index];
    return section && 'error' in section ? section.error : undefined;
  };
  const previewCounts = (index: number) => {
    const section = preview.data?.sections[index];
    return section && 'report_rows' in section ? section : undefined;
  };

  const builder = (
    <div className="report-builder__builder">
      <div className="report-builder__sections">
        {draft.sections.map((section, index) => (
          <SectionEditor key={index} section={section} index={index} count={draft.sections.length}
            errors={{ ...sectionErrors(previewErrors, index), ...sectionErrors(errors, index) }} previewError={previewSection(index)} previewCounts={previewCounts(index)}
            onChange={(next) => setSections(draft.sections.map((old, at) => (at === index ? next : old)))}
            onMove={(by) => setSections(moveSection(draft.sections, index, by))}
            onRemove={() => setSections(draft.sections.filter((_, at) => at !== index))} />
        ))}
        <div className="report-builder__add" role="group" aria-label={t('reports.builder.addSection')}>
          {sectionTypes.map((type) => (
            <Button key={type} variant="secondary" disabled={draft.sections.length >= 50} onClick={() => setSections([...draft.sections, newSection(type)])}>
              {t('reports.builder.add', { type: t(`reports.sectionType.${type}`) })}
            </Button>
          ))}
        </div>
      </div>
      <ReportPreviewPane preview={preview.data} pending={preview.isFetching || settled !== draft} problem={previewProblem} />
    </div>
  );

  return (
    <section className="reports-page report-builder">
      <PageHeader title={reportId ? t('reports.builder.editTitle') : t('reports.builder.title')} description={t('reports.builder.description')}
        actions={<ButtonLink variant="secondary" href="#/reports">{t('reports.builder.cancel')}</ButtonLink>} />
      {errorCount ? <p className="report-section__error" role="alert">{t('reports.builder.notSaved', { count: errorCount })}</p> : null}
      <Tabs label={t('reports.builder.steps')} value={step} onValueChange={(next) => setStep(next as BuilderStep)} tabs={[
        { id: 'define', label: t('reports.step.define'), content: <DefineStep draft={draft} change={change} errors={errors} /> },
        { id: 'configure', label: t('reports.step.configure'), content: <ConfigureStep draft={draft} change={change} errors={errors} /> },
        { id: 'builder', label: t('reports.step.builder'), content: builder },
      ]} />
      <div className="report-builder__footer">
        <Button variant="secondary" disabled={stepIndex === 0} onClick={() => setStep(builderSteps[stepIndex - 1]!)}>{t('reports.builder.back')}</Button>
        {stepIndex < builderSteps.length - 1 ? <Button variant="secondary" onClick={() => setStep(builderSteps[stepIndex + 1]!)}>{t('reports.builder.next')}</Button> : null}
        <Button loading={save.isPending} disabled={!draft.name.trim()} onClick={() => save.mutate(draft)}>{reportId ? t('reports.builder.save') : t('reports.builder.create')}</Button>
      </div>
    </section>
  );
}
