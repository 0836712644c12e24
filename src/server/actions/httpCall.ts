import http from 'node:http';
import https from 'node:https';
import { checkLiteralHost, guardedLookup, OutboundRefusedError, type OutboundPolicy } from '../outbound/guard.js';

export type HttpAnswer = { status: number; body: string; retryAfterSeconds?: number };
export type CallOptions = { timeoutMs: number; retries: number; headers?: Record<string, string>; method?: 'POST' | 'GET' };

// Answers worth another attempt: the receiver is busy or failing for now.
const transientStatus = (status: number) => status === 408 || status === 429 || status >= 500;
const maximumAnswerBytes = 64 * 1024;
const maximumWaitMs = 10_000;

/**
 * HTTP agents of one run: kept-alive sockets (thousands of calls to one receiver) whose lookups pass the outbound
 * guard at the moment each socket connects. Redirects are not followed: an answer is the receiver's own.
 */
export function outboundAgents(policy: OutboundPolicy, sockets: number) {
  const lookup = guardedLookup(policy);
  return {
    policy,
    http: new http.Agent({ keepAlive: true, maxSockets: sockets, lookup } as http.AgentOptions),
    https: new https.Agent({ keepAlive: true, maxSockets: sockets, lookup } as https.AgentOptions),
    close() {
      this.http.destroy();
      this.https.destroy();
    },
  };
}
export type OutboundAgents = ReturnType<typeof outboundAgents>;

function callOnce(url: URL, body: string | null, options: CallOptions, agents: OutboundAgents): Promise<HttpAnswer> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(url, {
      method: options.method ?? 'POST',
      agent: secure ? agents.https : agents.http,
      headers: { ...(body !== null && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }), 'user-agent': 'Cartograph-Actions', ...options.headers },
      timeout: options.timeoutMs,
    }, (response) => {
      const parts: Buffer[] = [];
      let size = 0;
      response.on('data', (part: Buffer) => {
        if (size < maximumAnswerBytes) parts.push(part);
        size += part.length;
      });
      const retryAfter = Number(response.headers['retry-after']);
      response.on('end', () => resolve({
        status: response.statusCode ?? 0,
        body: Buffer.concat(parts).toString('utf8').slice(0, maximumAnswerBytes),
        ...(Number.isFinite(retryAfter) && { retryAfterSeconds: retryAfter }),
      }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`No answer within ${options.timeoutMs / 1000} s.`)));
    request.on('error', reject);
    request.end(body ?? undefined);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls a URL, trying again after failures worth retrying (network errors, timeouts, 408, 429, 5xx) with doubling
 * waits (a 429's Retry-After is honoured up to 10 s). Answers the last answer; throws the last network error.
 */
export async function callWithRetries(target: string, body: string | null, options: CallOptions, agents: OutboundAgents, baseWaitMs = 250): Promise<HttpAnswer & { attempts: number }> {
  const url = new URL(target);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('Only http and https destinations are called.');
  // Literal addresses never reach the agent's lookup: check them here.
  checkLiteralHost(url.hostname, agents.policy);
  for (let attempt = 1; ; attempt += 1) {
    try {
      const answer = await callOnce(url, body, options, agents);
      if (!transientStatus(answer.status) || attempt > options.retries) return { ...answer, attempts: attempt };
      await sleep(answer.retryAfterSeconds !== undefined ? Math.min(answer.retryAfterSeconds * 1000, maximumWaitMs) : Math.min(baseWaitMs * 2 ** (attempt - 1), maximumWaitMs));
    } catch (error) {
      if (error instanceof OutboundRefusedError || attempt > options.retries) throw error;
      await sleep(Math.min(baseWaitMs * 2 ** (attempt - 1), maximumWaitMs));
    }
  }
}
