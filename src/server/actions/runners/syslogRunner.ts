import { openSyslogSender, type SyslogTarget } from '../../outbound/syslog.js';
import type { ActionRunner } from '../actionTypes.js';
import { allTargets, messageOf } from '../actionTypes.js';
import { chunks } from '../bounded.js';
import { renderText } from '../template.js';

type SyslogParameters = Omit<SyslogTarget, 'host'> & { host: string; severity?: number; message_template: string };

// Events written per send: a long scope goes out in steady pieces.
const eventsPerSend = 500;

/** One event per asset to a syslog server (RFC 5424 or CEF, UDP, TCP or TLS), with the asset's id and name as fields. */
export const syslogRunner: ActionRunner = {
  entities: null,
  async run({ parameters, settings, actionName, actionId, outbound }, targets) {
    const { message_template: template, severity = 5, ...target } = parameters as SyslogParameters;
    try {
      // The action center's list narrows where an action's events may go, on top of the company's policy.
      const sender = await openSyslogSender(target, { ...outbound, onlyListed: settings.allowed_destinations });
      try {
        for (const batch of chunks(targets, eventsPerSend)) {
          await sender.send(batch.map((asset) => ({
            severity, eventId: 'action.asset', message: renderText(template, asset, { action: actionName }),
            fields: { action: actionName, action_id: actionId, asset: asset.assetId, name: asset.name },
          })));
        }
      } finally {
        await sender.close();
      }
      return allTargets(targets, { status: 'succeeded', detail: `Sent to ${target.host}:${target.port} (${target.transport}, ${target.format})` });
    } catch (error) {
      return allTargets(targets, { status: 'failed', detail: messageOf(error) });
    }
  },
};
