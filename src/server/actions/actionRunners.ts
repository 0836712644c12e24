import type { ActionRunner } from './actionTypes.js';
import { chatRunner } from './runners/chatRunner.js';
import { emailRunner } from './runners/emailRunner.js';
import { sshRunner } from './runners/sshRunner.js';
import { syslogRunner } from './runners/syslogRunner.js';
import { tagRunner } from './runners/tagRunner.js';
import { ticketRunner } from './runners/ticketRunner.js';
import { webhookRunner } from './runners/webhookRunner.js';

/** Every action type's runner, by the type's name (its parameters' schema is `schemas/actions/<type>.json`). */
export const actionRunners: Record<string, ActionRunner> = {
  tag: tagRunner,
  webhook: webhookRunner,
  email: emailRunner,
  syslog: syslogRunner,
  ticket: ticketRunner,
  chat: chatRunner,
  ssh_command: sshRunner,
};
