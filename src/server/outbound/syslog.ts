import { createSocket } from 'node:dgram';
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { connect as connectTls } from 'node:tls';
import { bareHost, checkDestination, type OutboundPolicy } from './guard.js';

/** Where and how events are forwarded: RFC 5424 or CEF lines over UDP, TCP or TLS (RFC 5425 octet-counted frames). */
export type SyslogTarget = {
  host: string; port: number; transport: 'udp' | 'tcp' | 'tls'; format: 'rfc5424' | 'cef';
  /** PEM of the CA that signed the receiver's certificate (TLS), when it is not a public one. */
  ca_certificate?: string;
  verify_certificate?: boolean;
};

/** One event to forward. `severity` is syslog's 0 (emergency) to 7 (debug). */
export type SyslogEvent = {
  severity: number;
  /** A short machine name for the kind of event (RFC 5424 MSGID, CEF signature id), e.g. `user.signin`. */
  eventId: string;
  message: string;
  time?: Date;
  /** Extra fields: RFC 5424 structured data under `cartograph@32473`, CEF extension keys. */
  fields?: Record<string, string | number | boolean | null | undefined>;
};

const facilityLocal0 = 16;
const appName = 'cartograph';
// The example private enterprise number of RFC 5612: Cartograph has none of its own.
const structuredDataId = 'cartograph@32473';
const vendor = 'Cartograph';
const product = 'Cartograph';
const productVersion = '0.1';
const udpMaxBytes = 2048;
const connectTimeoutMs = 10_000;

/** RFC 5424 PARAM-VALUE escaping: `"`, `\` and `]`. */
function sdValue(value: string): string {
  return value.replace(/["\\\]]/g, (character) => `\\${character}`);
}

/** RFC 5424 SD-NAME: printable US-ASCII without `=`, space, `]`, `"`; at most 32 characters. */
function sdName(name: string): string {
  return name.replace(/[^\x21-\x7e]|[= \]"]/g, '_').slice(0, 32);
}

function presentFields(event: SyslogEvent): [string, string][] {
  return Object.entries(event.fields ?? {}).filter(([, value]) => value !== null && value !== undefined).map(([key, value]) => [key, String(value)]);
}

export function formatRfc5424(event: SyslogEvent, host = hostname()): string {
  const priority = facilityLocal0 * 8 + Math.min(7, Math.max(0, event.severity));
  const fields = presentFields(event);
  const structured = fields.length ? `[${structuredDataId} ${fields.map(([key, value]) => `${sdName(key)}="${sdValue(value)}"`).join(' ')}]` : '-';
  const msgId = sdName(event.eventId) || '-';
  return `<${priority}>1 ${(event.time ?? new Date()).toISOString()} ${sdName(host)} ${appName} ${process.pid} ${msgId} ${structured} ${event.message}`;
}

/** CEF header values escape `\` and `|`; extension values escape `\`, `=` and line breaks. */
const cefHeader = (value: string) => value.replace(/[\\|]/g, (character) => `\\${character}`);
const cefExtension = (value: string) => value.replace(/[\\=]/g, (character) => `\\${character}`).replace(/\r?\n/g, '\\n');
const cefKey = (key: string) => key.replace(/[^A-Za-z0-9_]/g, '_');

/** CEF severity runs 0–10 the other way round from syslog's. */
function cefSeverity(syslogSeverity: number): number {
  return [10, 10, 9, 8, 6, 4, 2, 1][Math.min(7, Math.max(0, syslogSeverity))];
}

export function formatCef(event: SyslogEvent, host = hostname()): string {
  const time = event.time ?? new Date();
  const extension = [['rt', String(time.getTime())], ['dvchost', host], ...presentFields(event).map(([key, value]) => [cefKey(key), value])]
    .map(([key, value]) => `${key}=${cefExtension(value)}`).join(' ');
  const header = ['CEF:0', vendor, product, productVersion, event.eventId, event.message.split('\n')[0], String(cefSeverity(event.severity))].map((part, index) => (index ? cefHeader(part) : part));
  const priority = facilityLocal0 * 8 + Math.min(7, Math.max(0, event.severity));
  return `<${priority}>${time.toISOString()} ${host} ${header.join('|')}|${extension}`;
}

export function formatSyslog(target: SyslogTarget, event: SyslogEvent): string {
  return target.format === 'cef' ? formatCef(event) : formatRfc5424(event);
}

export type SyslogSender = { send(events: SyslogEvent[]): Promise<void>; close(): Promise<void> };

/** A stream to `address` (where the guard let us connect); TLS still names and verifies the configured host. */
function openStream(target: SyslogTarget, address: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = target.transport === 'tls'
      ? connectTls({ host: address, port: target.port, ...(!isIP(bareHost(target.host)) && { servername: bareHost(target.host) }), rejectUnauthorized: target.verify_certificate ?? true, ...(target.ca_certificate ? { ca: target.ca_certificate } : {}) })
      : connectTcp({ host: address, port: target.port });
    const timer = setTimeout(() => socket.destroy(new Error(`syslog receiver ${target.host}:${target.port} did not answer within ${connectTimeoutMs / 1000} s`)), connectTimeoutMs);
    socket.once(target.transport === 'tls' ? 'secureConnect' : 'connect', () => { clearTimeout(timer); resolve(socket); });
    socket.once('error', (error) => { clearTimeout(timer); reject(error); });
  });
}

function write(socket: Socket, data: string): Promise<void> {
  return new Promise((resolve, reject) => socket.write(data, (error) => (error ? reject(error) : resolve())));
}

/**
 * A sender to one receiver. TCP and TLS keep one connection and frame each line with its octet count (RFC 6587 /
 * RFC 5425), so messages with line breaks arrive whole; UDP sends one datagram per event, cut at 2 KiB.
 */
export async function openSyslogSender(target: SyslogTarget, outbound: OutboundPolicy): Promise<SyslogSender> {
  // The outbound guard resolves and judges the receiver; every datagram and stream goes to the address it checked.
  const address = await checkDestination(target.host, outbound);
  if (target.transport === 'udp') {
    const socket = createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');
    return {
      async send(events) {
        for (const event of events) {
          const datagram = Buffer.from(formatSyslog(target, event)).subarray(0, udpMaxBytes);
          await new Promise<void>((resolve, reject) => socket.send(datagram, target.port, address, (error) => (error ? reject(error) : resolve())));
        }
      },
      close: () => new Promise((resolve) => socket.close(() => resolve())),
    };
  }
  const socket = await openStream(target, address);
  let failure: Error | null = null;
  socket.on('error', (error) => { failure = error; });
  return {
    async send(events) {
      if (failure) throw failure;
      const frames = events.map((event) => {
        const line = formatSyslog(target, event);
        return `${Buffer.byteLength(line)} ${line}`;
      });
      await write(socket, frames.join(''));
    },
    close: () => new Promise((resolve) => socket.end(() => resolve())),
  };
}

/** Sends the events over a connection opened for them alone (a test button, an action run). */
export async function sendSyslog(target: SyslogTarget, events: SyslogEvent[], outbound: OutboundPolicy): Promise<void> {
  const sender = await openSyslogSender(target, outbound);
  try {
    await sender.send(events);
  } finally {
    await sender.close();
  }
}
