import { createHmac } from 'node:crypto';
import type { ActionRunner, TargetResult } from '../actionTypes.js';
import { allTargets, messageOf } from '../actionTypes.js';
import { chunks, mapBounded } from '../bounded.js';
import { callWithRetries, outboundAgents } from '../httpCall.js';
import { renderJson } from '../template.js';

type WebhookParameters = { url: string; body_template: string; batch_size: number; signing_secret?: string; headers?: Record<string, string> };

export const signatureHeader = 'x-cartograph-signature';

/** `sha256=<hex HMAC-SHA256 of the exact body>`: what receivers recompute to trust a call. */
export const signatureOf = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** POSTs each asset (or each batch of assets) as JSON from the template; calls run `concurrency` at once. */
export const webhookRunner: ActionRunner = {
  entities: null,
  async run({ parameters, settings, actionName, outbound }, targets) {
    const { url, body_template: template, batch_size: batchSize, signing_secret: secret, headers = {} } = parameters as WebhookParameters;
    const agents = outboundAgents({ ...outbound, onlyListed: settings.allowed_destinations }, settings.concurrency);
    try {
      const batches = chunks(targets, batchSize);
      const answers = await mapBounded(batches, settings.concurrency, async (batch): Promise<TargetResult[]> => {
        const rendered = batch.map((target) => renderJson(template, target, { action: actionName }));
        const body = JSON.stringify(batchSize === 1 ? rendered[0] : { assets: rendered });
        try {
          const answer = await callWithRetries(url, body, {
            timeoutMs: settings.target_timeout_seconds * 1000, retries: settings.retries,
            headers: { ...headers, ...(secret && { [signatureHeader]: signatureOf(secret, body) }) },
          }, agents);
          const tries = answer.attempts > 1 ? ` after ${answer.attempts} attempts` : '';
          const ok = answer.status >= 200 && answer.status < 300;
          return allTargets(batch, { status: ok ? 'succeeded' : 'failed', detail: `HTTP ${answer.status}${tries}`, output: answer.body.slice(0, 2000) });
        } catch (error) {
          return allTargets(batch, { status: 'failed', detail: messageOf(error) });
        }
      });
      return answers.flat();
    } finally {
      agents.close();
    }
  },
};
