import { t } from '../../app/i18n/messages';
import type { ScheduleDraft } from './reportsApi';

export const weekdays = [0, 1, 2, 3, 4, 5, 6];
export const weekdayName = (day: number) => t(`reports.weekday.${day}`);

/** When a schedule runs, in words: "Weekly on Monday at 08:00 (Europe/Istanbul)". */
export function timingText(schedule: Pick<ScheduleDraft, 'preset' | 'time' | 'weekday' | 'day_of_month' | 'cron' | 'timezone'>): string {
  const values = { time: schedule.time, day: weekdayName(schedule.weekday), date: schedule.day_of_month, cron: schedule.cron, zone: schedule.timezone };
  return t(`reports.timing.${schedule.preset}`, values);
}

/** Addresses typed one a line or separated by commas or semicolons. */
export const addressesOf = (text: string): string[] => [...new Set(text.split(/[\n,;]+/).map((address) => address.trim()).filter(Boolean))];
