import { t } from '../../../app/i18n/messages';

// Message keys of the binary units, smallest first: a locale may write them its own way (French "Kio").
const unitKeys = ['settings.system.sizeB', 'settings.system.sizeKiB', 'settings.system.sizeMiB', 'settings.system.sizeGiB', 'settings.system.sizeTiB'];

/** Bytes in the largest binary unit under 1024. Before: 1610612736; after: "1.5 GiB". */
export function bytesText(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < unitKeys.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return t(unitKeys[unit]!, { size: unit === 0 ? value : value.toFixed(1) });
}

/** A part of a whole in whole percent. Before: (1, 4); after: "25%". */
export const shareOf = (part: number, whole: number): string => (whole ? t('settings.system.percent', { share: Math.round((part / whole) * 100) }) : '-');

/** Seconds as days, hours and minutes. Before: 93784; after: "1d 2h 3m". */
export function durationText(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return [
    days && t('settings.system.days', { count: days }),
    (days || hours) && t('settings.system.hours', { count: hours }),
    t('settings.system.minutes', { count: minutes }),
  ].filter(Boolean).join(' ');
}
