import { hasPermission } from '../../app/session/session';
import type { EntityLinks } from '../../renderers';

export const actionCenterPath = '/action-center';
export const sshListPath = '/action-center/ssh';
export const sshCredentialSchema = 'cartograph:entities/ssh-credential';
export const actionSchema = 'cartograph:entities/action';

/** The action types, their labels and the schema of their parameters (schemas/actions/<type>.json). */
export const actionTypes = [
  { type: 'webhook', label: 'Webhook' },
  { type: 'tag', label: 'Add or remove tags' },
  { type: 'email', label: 'E-mail' },
  { type: 'syslog', label: 'Syslog' },
  { type: 'ticket', label: 'Create ticket (Jira, ServiceNow)' },
  { type: 'chat', label: 'Slack or Teams message' },
  { type: 'ssh_command', label: 'SSH command' },
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
