import { t } from '../../app/i18n/messages';
import { hasPermission } from '../../app/session/session';
import type { EntityLinks } from '../../renderers';

export const actionCenterPath = '/action-center';
export const sshListPath = '/action-center/ssh';
export const sshCredentialSchema = 'cartograph:entities/ssh-credential';
export const actionSchema = 'cartograph:entities/action';

/** The action types, their labels and the schema of their parameters (schemas/actions/<type>.json). */
export const actionTypes = [
  { type: 'webhook', get label() { return t('actions.webhook'); } },
  { type: 'tag', get label() { return t('actions.addRemoveTags'); } },
  { type: 'email', get label() { return t('actions.eMail'); } },
  { type: 'syslog', get label() { return t('actions.syslog'); } },
  { type: 'ticket', get label() { return t('actions.createTicketJiraServicenow'); } },
  { type: 'chat', get label() { return t('actions.slackTeamsMessage'); } },
  { type: 'ssh_command', get label() { return t('actions.sshCommand'); } },
] as const;
export const parameterSchemaOf = (type: string) => `cartograph:actions/${type}`;
export const typeLabel = (type: string) => actionTypes.find((entry) => entry.type === type)?.label ?? type;

/** Where the SSH credential pages are (under the action center, not at the generic paths). */
export function sshCredentialLinks(): EntityLinks {
  return {
    list: sshListPath,
    create: hasPermission('workflows.add_sshsettings') ? `${sshListPath}/create` : null,
    edit: hasPermission('workflows.change_sshsettings') ? (id) => `${sshListPath}/edit/${encodeURIComponent(String(id))}` : null,
    detail: null,
  };
}
