import type { Queryable } from '../db/database.js';
import type { OutboundPolicy } from '../outbound/guard.js';
import { openSyslogSender, type SyslogEvent, type SyslogSender } from '../outbound/syslog.js';
import { loadSyslogSettings, syslogTargetOf, type SyslogSettings } from './syslogSettings.js';

// Settings are read at most this often per company; a page save refreshes them at once in this process.
const settingsTtlMs = 30_000;
// Events waiting for a slow receiver, per company; beyond this the oldest are dropped (and counted in the log).
const maxQueued = 1000;

type CompanyChannel = { settings: SyslogSettings; policy: OutboundPolicy; readAt: number; sender: Promise<SyslogSender> | null; key: string; queue: SyslogEvent[]; draining: Promise<void> | null };

type Logger = { error: (detail: object, message: string) => void };

/**
 * Forwards activities to each company's syslog receiver. Forwarding never throws and never makes the caller wait for
 * the receiver: events are queued per company and sent in order over one kept connection (TCP, TLS), reopened after
 * a failure. A receiver that is down costs the events sent while it is down, nothing else.
 */
export class ActivityForwarder {
  private readonly channels = new Map<number, CompanyChannel>();
  private closed = false;

  constructor(
    private readonly db: Queryable,
    /** Where the company's calls may go (the outbound guard's policy), read with its settings. */
    private readonly policyOf: (companyId: number) => Promise<OutboundPolicy>,
    private readonly log: Logger = { error: (detail, message) => console.error(message, detail) },
  ) {}

  /** Queues the event for the company's receiver, if it has one switched on. Resolves once it is sent or dropped. */
  forward(companyId: number, event: SyslogEvent): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.enqueue(companyId, { ...event, time: event.time ?? new Date() }).catch((error) => this.log.error({ err: error, companyId }, 'syslog forwarding failed'));
  }

  /** Drops the cached settings (and connection) of a company after its page was saved. */
  async refresh(companyId: number): Promise<void> {
    const channel = this.channels.get(companyId);
    this.channels.delete(companyId);
    await this.closeSender(channel);
  }

  async close(): Promise<void> {
    this.closed = true;
    const channels = [...this.channels.values()];
    this.channels.clear();
    await Promise.all(channels.map(async (channel) => { await channel.draining?.catch(() => undefined); await this.closeSender(channel); }));
  }

  private async channelOf(companyId: number): Promise<CompanyChannel> {
    const current = this.channels.get(companyId);
    if (current && Date.now() - current.readAt < settingsTtlMs) return current;
    const settings = await loadSyslogSettings(this.db, companyId);
    const policy = await this.policyOf(companyId);
    const key = JSON.stringify([syslogTargetOf(settings), policy]);
    if (current && current.key === key) return Object.assign(current, { settings, readAt: Date.now() });
    await this.closeSender(current);
    const channel: CompanyChannel = { settings, policy, readAt: Date.now(), sender: null, key, queue: current?.queue ?? [], draining: null };
    this.channels.set(companyId, channel);
    return channel;
  }

  private async enqueue(companyId: number, event: SyslogEvent): Promise<void> {
    const channel = await this.channelOf(companyId);
    if (!channel.settings.enabled || !channel.settings.host) return;
    channel.queue.push(event);
    if (channel.queue.length > maxQueued) {
      const dropped = channel.queue.splice(0, channel.queue.length - maxQueued).length;
      this.log.error({ companyId, dropped }, 'syslog receiver too slow: events dropped');
    }
    channel.draining ??= this.drain(channel).finally(() => { channel.draining = null; });
    await channel.draining;
  }

  private async drain(channel: CompanyChannel): Promise<void> {
    while (channel.queue.length) {
      const batch = channel.queue.splice(0, channel.queue.length);
      try {
        channel.sender ??= openSyslogSender(syslogTargetOf(channel.settings), channel.policy);
        await (await channel.sender).send(batch);
      } catch (error) {
        // The next event tries a fresh connection; these ones are lost, as they would be over UDP.
        await this.closeSender(channel);
        throw error;
      }
    }
  }

  private async closeSender(channel: CompanyChannel | undefined): Promise<void> {
    const sender = channel?.sender;
    if (channel) channel.sender = null;
    if (sender) await sender.then((opened) => opened.close()).catch(() => undefined);
  }
}

const forwarders = new WeakMap<Queryable, ActivityForwarder>();

/** Forwards the activities recorded through `db` (the server's own database handle) from now on. */
export function attachActivityForwarder(db: Queryable, policyOf: (companyId: number) => Promise<OutboundPolicy>, log?: Logger): ActivityForwarder {
  const forwarder = new ActivityForwarder(db, policyOf, log);
  forwarders.set(db, forwarder);
  return forwarder;
}

export async function detachActivityForwarder(db: Queryable): Promise<void> {
  const forwarder = forwarders.get(db);
  forwarders.delete(db);
  await forwarder?.close();
}

/** The forwarder of a database handle; null for handles that do not forward (a transaction, a script). */
export function activityForwarderOf(db: Queryable): ActivityForwarder | null {
  return forwarders.get(db) ?? null;
}
