import type { ActionRunner, TargetResult } from '../actionTypes.js';
import { allTargets, messageOf } from '../actionTypes.js';
import { chunks } from '../bounded.js';
import { callWithRetries, outboundAgents } from '../httpCall.js';
import { renderText } from '../template.js';

type ChatParameters = { platform: 'slack' | 'teams'; webhook_url: string; heading: string; line_template: string };

// Lines per message: both services cut or refuse very long messages.
const linesPerMessage = 50;

/** The body each service's incoming webhook takes: Slack `{text}`, Teams a MessageCard. */
export function chatBody(platform: ChatParameters['platform'], text: string): string {
  return JSON.stringify(platform === 'slack' ? { text } : { '@type': 'MessageCard', '@context': 'https://schema.org/extensions', summary: text.split('\n')[0], text: text.replace(/\n/g, '\n\n') });
}

/** A heading and one line per asset, posted to a Slack or Teams incoming webhook in messages of 50 lines. */
export const chatRunner: ActionRunner = {
  entities: null,
  async run({ parameters, settings, actionName, outbound }, targets) {
    const { platform, webhook_url: url, heading, line_template: line } = parameters as ChatParameters;
    const agents = outboundAgents({ ...outbound, onlyListed: settings.allowed_destinations }, 1);
    const results: TargetResult[] = [];
    try {
      const parts = chunks(targets, linesPerMessage);
      for (const [index, part] of parts.entries()) {
        const title = renderText(heading, null, { action: actionName, count: targets.length }) + (parts.length > 1 ? ` (${index + 1}/${parts.length})` : '');
        const text = [title, ...part.map((target) => renderText(line, target, { action: actionName }))].join('\n');
        try {
          const answer = await callWithRetries(url, chatBody(platform, text), { timeoutMs: settings.target_timeout_seconds * 1000, retries: settings.retries }, agents);
          const ok = answer.status >= 200 && answer.status < 300;
          results.push(...allTargets(part, { status: ok ? 'succeeded' : 'failed', detail: `${platform === 'slack' ? 'Slack' : 'Teams'} answered HTTP ${answer.status}`, output: answer.body.slice(0, 500) }));
        } catch (error) {
          results.push(...allTargets(part, { status: 'failed', detail: messageOf(error) }));
        }
      }
      return results;
    } finally {
      agents.close();
    }
  },
};
