import { Cron } from 'croner';
import { isTimeZone } from '../../core/dates/index.js';
import type { ScheduleDocument } from './reportDocuments.js';

/** The cron expression a schedule runs by: its own, or its preset's (`weekly`, Monday 08:00 → `0 8 * * 1`). */
export function cronOf(schedule: Pick<ScheduleDocument, 'preset' | 'time' | 'weekday' | 'day_of_month' | 'cron'>): string {
  if (schedule.preset === 'cron') return schedule.cron.trim();
  const [hour, minute] = schedule.time.split(':').map(Number);
  if (schedule.preset === 'daily') return `${minute} ${hour} * * *`;
  if (schedule.preset === 'weekly') return `${minute} ${hour} * * ${schedule.weekday}`;
  return `${minute} ${hour} ${schedule.day_of_month} * *`;
}

/** The field error of a time zone that is no IANA name this server knows. */
export const unknownTimeZone = (name: string) => `Unknown time zone "${name}": choose an IANA name such as Europe/Istanbul.`;

/** Field errors of a schedule's timing: an expression that does not parse, an unknown time zone. */
export function scheduleTimingErrors(schedule: ScheduleDocument): Record<string, string[]> {
  if (!isTimeZone(schedule.timezone)) return { timezone: [unknownTimeZone(schedule.timezone)] };
  const expression = cronOf(schedule);
  if (schedule.preset === 'cron' && expression.split(/\s+/).length !== 5) return { cron: ['Give a cron expression of five fields: minute hour day month weekday.'] };
  try {
    new Cron(expression, { timezone: schedule.timezone, paused: true }).nextRun();
  } catch (error) {
    return { cron: [`Invalid cron expression: ${(error as Error).message}`] };
  }
  return {};
}

/** When the schedule runs next after `from`, or null when it is off. */
export function nextRunOf(schedule: ScheduleDocument, from = new Date()): Date | null {
  if (!schedule.enabled || Object.keys(scheduleTimingErrors(schedule)).length) return null;
  return new Cron(cronOf(schedule), { timezone: schedule.timezone, paused: true }).nextRun(from);
}
