import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, apiFetch } from '../../app/http';
import { t } from '../../app/i18n/messages';
import { navigateTo } from '../../app/navigation';
import { notify } from '../../app/notifications/notifications';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { useCompanyRows } from '../../renderers/form/widgets/useCompanyRows';
import { Button, ButtonLink, Checkbox, ErrorState, Field, PageHeader, Select, Spinner, Textarea, TextInput } from '../../ui';
import { reportFormats, reportListQuery, scheduleQuery, schedulesPath, type ReportFormat, type ScheduleDraft, type ScheduleItem, type SchedulePreset } from './reportsApi';
import { addressesOf, timingText, weekdayName, weekdays } from './scheduleText';
import { TimeZoneSelect } from './TimeZoneSelect';
import './reports.css';

type Errors = Record<string, string[]>;
type UserRow = { id: number; username: string; first_name?: string; last_name?: string; email?: string };

const emptySchedule = (): ScheduleDraft => ({
  name: '', report: null, enabled: true, preset: 'weekly', time: '08:00', weekday: 1, day_of_month: 1, cron: '', timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  formats: ['pdf'], recipient_users: [], recipients: [], subject: '', body: '',
});
const writable = (schedule: ScheduleItem): ScheduleDraft => ({
  name: schedule.name, report: schedule.report, enabled: schedule.enabled, preset: schedule.preset, time: schedule.time, weekday: schedule.weekday, day_of_month: schedule.day_of_month,
  cron: schedule.cron, timezone: schedule.timezone, formats: schedule.formats, recipient_users: schedule.recipient_users, recipients: schedule.recipients, subject: schedule.subject, body: schedule.body,
});
const presets: SchedulePreset[] = ['daily', 'weekly', 'monthly', 'cron'];

/** Messages of a field and of its items (`recipients.1` → under recipients). */
const errorsOf = (errors: Errors, field: string) => Object.entries(errors).filter(([key]) => key === field || key.startsWith(`${field}.`)).flatMap(([, messages]) => messages);

function UserChoices({ chosen, onChange, error }: { chosen: number[]; onChange: (ids: number[]) => void; error: string[] }) {
  const { rows, status } = useCompanyRows<UserRow>('/users/users', 'username', t('reports.scheduleForm.users'));
  return (
    <Field label={t('reports.scheduleForm.recipientUsers')} message={t('reports.scheduleForm.recipientUsersHelp')} error={error}>
      {() => (
        <div className="report-schedule__users">
          {status ? <p>{status}</p> : null}
          {rows.map((user) => {
            const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username;
            return <Checkbox key={user.id} label={user.email ? `${name} <${user.email}>` : t('reports.scheduleForm.noEmail', { name })} checked={chosen.includes(user.id)}
              onCheckedChange={(on) => onChange(on ? [...chosen, user.id] : chosen.filter((id) => id !== user.id))} />;
          })}
        </div>
      )}
    </Field>
  );
}

/** `/reports/schedules/edit/{scheduleId}` (`new` creates): timing by preset or cron in a time zone, recipients, the e-mail and its files. */
export function ReportScheduleForm() {
  const { scheduleId } = useParams({ strict: false }) as { scheduleId?: string };
  const id = scheduleId && scheduleId !== 'new' ? Number(scheduleId) : null;
  const stored = useQuery({ ...scheduleQuery(id ?? 0), enabled: id !== null });
  const reports = useQuery(reportListQuery());
  const [form, setForm] = useState<ScheduleDraft | null>(id === null ? emptySchedule() : null);
  const [addresses, setAddresses] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const queryClient = useQueryClient();
  useEffect(() => setBreadcrumb([{ label: t('reports.title'), to: '/reports' }, { label: t('reports.schedules.title'), to: '/reports/schedules' }, { label: id ? t('reports.scheduleForm.editTitle') : t('reports.scheduleForm.newTitle') }]), [id]);
  useEffect(() => {
    if (stored.data && !form) {
      setForm(writable(stored.data));
      setAddresses(stored.data.recipients.join('\n'));
    }
  }, [stored.data, form]);
  const save = useMutation({
    mutationFn: (body: ScheduleDraft) => apiFetch<ScheduleItem>(id ? `${schedulesPath}/${id}` : schedulesPath, { method: id ? 'PUT' : 'POST', body, silent: true }),
    onSuccess: (saved) => {
      setErrors({});
      notify('success', t('reports.scheduleForm.saved', { name: saved.name }));
      void queryClient.invalidateQueries({ queryKey: ['report-schedules'] });
      navigateTo('/reports/schedules');
    },
    onError: (error) => {
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      setErrors(Object.keys(fields).length ? fields : { '': [error.message] });
    },
  });

  if (!form) {
    if (stored.isError) return <ErrorState message={stored.error.message} onRetry={() => void stored.refetch()} />;
    return <Spinner label={t('reports.scheduleForm.loading')} />;
  }
  const change = (changes: Partial<ScheduleDraft>) => setForm({ ...form, ...changes });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing: Errors = {};
    if (!form.name.trim()) missing.name = [t('reports.scheduleForm.nameMissing')];
    if (form.report === null) missing.report = [t('reports.scheduleForm.reportMissing')];
    if (!form.formats.length) missing.formats = [t('reports.scheduleForm.formatsMissing')];
    if (Object.keys(missing).length) return setErrors(missing);
    save.mutate({ ...form, recipients: addressesOf(addresses) });
  };
  const error = (field: string) => errorsOf(errors, field);
  const other = Object.entries(errors).filter(([key]) => !['name', 'report', 'enabled', 'preset', 'time', 'weekday', 'day_of_month', 'cron', 'timezone', 'formats', 'recipient_users', 'recipients', 'subject', 'body'].includes(key.split('.')[0]!)).flatMap(([, messages]) => messages);
  return (
    <section className="reports-page">
      <PageHeader title={id ? t('reports.scheduleForm.editTitle') : t('reports.scheduleForm.newTitle')} description={t('reports.scheduleForm.description')} />
      <form className="report-schedule" onSubmit={submit} noValidate>
        {other.map((message) => <p key={message} className="report-section__error" role="alert">{message}</p>)}
        <TextInput label={t('reports.scheduleForm.name')} value={form.name} required maxLength={200} onValueChange={(name) => change({ name })} error={error('name')} />
        <Select label={t('reports.scheduleForm.report')} value={form.report ? String(form.report) : ''} placeholder={t('reports.scheduleForm.chooseReport')} required
          options={(reports.data?.results ?? []).map((report) => ({ value: String(report.id), label: report.name }))} onValueChange={(value) => change({ report: value ? Number(value) : null })} error={error('report')} />
        <Checkbox label={t('reports.scheduleForm.enabled')} checked={form.enabled} onCheckedChange={(enabled) => change({ enabled })} error={error('enabled')} />
        <Select label={t('reports.scheduleForm.preset')} value={form.preset} options={presets.map((value) => ({ value, label: t(`reports.preset.${value}`) }))} onValueChange={(preset) => change({ preset: preset as SchedulePreset })} error={error('preset')} />
        {form.preset === 'weekly' ? <Select label={t('reports.scheduleForm.weekday')} value={String(form.weekday)} options={weekdays.map((day) => ({ value: String(day), label: weekdayName(day) }))} onValueChange={(day) => change({ weekday: Number(day) })} error={error('weekday')} /> : null}
        {form.preset === 'monthly' ? <TextInput label={t('reports.scheduleForm.dayOfMonth')} type="number" min={1} max={28} value={String(form.day_of_month)} onValueChange={(day) => change({ day_of_month: Number(day) || 1 })} error={error('day_of_month')} /> : null}
        {form.preset === 'cron' ? (
          <TextInput label={t('reports.scheduleForm.cron')} value={form.cron} maxLength={100} placeholder="0 8 * * 1" className="report-schedule__cron" onValueChange={(cron) => change({ cron })} message={t('reports.scheduleForm.cronHelp')} error={error('cron')} />
        ) : (
          <TextInput label={t('reports.scheduleForm.time')} value={form.time} placeholder="08:00" maxLength={5} onValueChange={(time) => change({ time })} message={t('reports.scheduleForm.timeHelp')} error={error('time')} />
        )}
        <TimeZoneSelect label={t('reports.scheduleForm.timezone')} value={form.timezone} onValueChange={(timezone) => change({ timezone })} error={error('timezone')}
          message={form.preset !== 'cron' || form.cron ? timingText(form) : undefined} />
        <Field label={t('reports.scheduleForm.formats')} error={error('formats')}>
          {() => (
            <div className="report-schedule__formats">
              {reportFormats.map((format) => (
                <Checkbox key={format} label={format.toUpperCase()} checked={form.formats.includes(format)}
                  onCheckedChange={(on) => change({ formats: on ? [...form.formats, format] : form.formats.filter((chosen): chosen is ReportFormat => chosen !== format) })} />
              ))}
            </div>
          )}
        </Field>
        <UserChoices chosen={form.recipient_users} onChange={(recipient_users) => change({ recipient_users })} error={error('recipient_users')} />
        <Textarea label={t('reports.scheduleForm.recipients')} value={addresses} rows={3} onValueChange={setAddresses} message={t('reports.scheduleForm.recipientsHelp')} error={error('recipients')} />
        <TextInput label={t('reports.scheduleForm.subject')} value={form.subject} maxLength={300} onValueChange={(subject) => change({ subject })} message={t('reports.scheduleForm.subjectHelp')} error={error('subject')} />
        <Textarea label={t('reports.scheduleForm.body')} value={form.body} maxLength={10000} rows={5} onValueChange={(body) => change({ body })} error={error('body')} />
        <div className="report-builder__footer">
          <ButtonLink variant="secondary" href="#/reports/schedules">{t('reports.builder.cancel')}</ButtonLink>
          <Button type="submit" loading={save.isPending}>{id ? t('reports.builder.save') : t('reports.scheduleForm.create')}</Button>
        </div>
      </form>
    </section>
  );
}
