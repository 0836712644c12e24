import { messagesUnder, t } from '../../app/i18n/messages';

/** Message keys of the activities' actions: the route names the server records (`devices.search`), one text each. */
const actionPrefix = 'activities.actions.';

/**
 * An activity's action as people read it: `devices.search` → "Searched devices", `smtp_configuration.update` →
 * "Changed SMTP settings". An action without a message (a route added later) reads as its name, which
 * tests/server/activities.test.ts keeps from happening for any route that records activities.
 */
export const actionText = (action: string): string => t(`${actionPrefix}${action}`, {}, action);

/** Every known action as a filter offers it: its name as the value, its text as the label, sorted by label. */
export function actionOptions(): { value: string; label: string }[] {
  return messagesUnder(actionPrefix)
    .map(([value, label]) => ({ value, label }))
    .sort((left, right) => left.label.localeCompare(right.label) || left.value.localeCompare(right.value));
}

/** A result or a system log level by its label ("Success", "Warning"), never its stored code; an unknown one as stored. */
const codeLabels: Record<string, () => string> = {
  success: () => t('activities.success'), failure: () => t('activities.failure'),
  info: () => t('activities.info'), warning: () => t('activities.warning'), error: () => t('activities.error'),
};
export const codeText = (code: string): string => codeLabels[code]?.() ?? code;
