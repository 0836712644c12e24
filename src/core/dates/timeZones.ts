// IANA names only (`Europe/Istanbul`, `UTC`, `America/Argentina/Buenos_Aires`, `Etc/GMT+3`); never an offset such as
// `+03:00`, which newer engines accept as a zone as well. The schemas of reports and schedules carry the same pattern.
const ianaName = /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/;

/** Whether a name is an IANA time zone this engine knows: `Europe/Istanbul` → true, `Mars/Olympus` or `+03:00` → false. */
export function isTimeZone(name: string): boolean {
  if (!ianaName.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The IANA names a time zone picker offers: UTC first (some engines leave it out of their list), the value already
 * chosen when the list lacks it (an older alias such as `Asia/Calcutta`), then the engine's zones in its order.
 */
export function timeZoneChoices(current?: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', ...(current ? [current] : []), ...known])];
}
