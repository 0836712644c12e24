import { addDays, addHours, addMinutes, addMonths, addSeconds, addWeeks, addYears, startOfDay, startOfHour, startOfMinute, startOfMonth, startOfSecond, startOfWeek, startOfYear } from 'date-fns';
import type { DateMath, DateUnit } from './ast.js';

const add: Record<DateUnit, (date: Date, amount: number) => Date> = { y: addYears, M: addMonths, w: addWeeks, d: addDays, h: addHours, m: addMinutes, s: addSeconds };
const round: Record<DateUnit, (date: Date) => Date> = { y: startOfYear, M: startOfMonth, w: startOfWeek, d: startOfDay, h: startOfHour, m: startOfMinute, s: startOfSecond };

/** The instant date math names: `now-15d/d` on 2026-11-22T14:00 → 2026-11-07T00:00 (local midnight). */
export function resolveDateMath({ offset, roundTo }: DateMath, now: Date): Date {
  const shifted = offset ? add[offset.unit](now, offset.amount) : now;
  return roundTo ? round[roundTo](shifted) : shifted;
}
