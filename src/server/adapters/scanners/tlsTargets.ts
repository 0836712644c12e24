import { isIP } from 'node:net';
import { addressesOf, countAddresses, parsePortList, parseTargetTerm, type Ipv4Range } from '../../../core/network/ipv4Targets.js';
import type { ConnectionConfig } from '../engine.js';

/** The most endpoints (addresses × ports) one TLS scan connection may hold. */
export const maximumTlsEndpoints = 65_536;

export type TlsEndpoint = { host: string; port: number };

/** One configured target: a name or address, or an IPv4 block, with its own port or the default ports. */
type TargetSpec = { kind: 'host'; host: string; ports: number[] } | { kind: 'block'; ranges: Ipv4Range[]; ports: number[] };

export type TlsScanSettings = { targets: TargetSpec[]; endpointCount: number; concurrency: number; handshakeTimeoutMs: number; customCa: string | null };

export class TlsConfigError extends Error {}

const hostnamePattern = /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62}))*\.?$/;

/**
 * Splits `host:port`, `[v6]:port`, a bare IPv6 address or an IPv4 block with an optional port.
 * Before: `"mail.example.com:465"`; after: `{name: "mail.example.com", port: 465}`.
 */
function splitPort(target: string): { name: string; port: number | null } | string {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(target);
  if (bracketed) return { name: bracketed[1], port: bracketed[2] ? Number(bracketed[2]) : null };
  if (isIP(target) === 6) return { name: target, port: null };
  const colon = target.lastIndexOf(':');
  if (colon < 0) return { name: target, port: null };
  const portText = target.slice(colon + 1);
  if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) return `"${target}" has an invalid port`;
  return { name: target.slice(0, colon), port: Number(portText) };
}

function parseTarget(target: string, defaultPorts: number[]): TargetSpec | string {
  const split = splitPort(target.trim());
  if (typeof split === 'string') return split;
  const ports = split.port ? [split.port] : defaultPorts;
  if (/[/-]/.test(split.name) && /^[\d./-]+$/.test(split.name)) {
    const range = parseTargetTerm(split.name, 16);
    return typeof range === 'string' ? range : { kind: 'block', ranges: [range], ports };
  }
  if (isIP(split.name) || hostnamePattern.test(split.name)) return { kind: 'host', host: split.name, ports };
  return `"${target}" is neither a host name, an IP address nor an IPv4 block`;
}

/** Reads the TLS scanner's options; throws TlsConfigError naming the bad entry or the counts over the cap. */
export function readTlsScanSettings(config: ConnectionConfig): TlsScanSettings {
  const entries = (Array.isArray(config.targets) ? config.targets : []).map(String).filter((entry) => entry.trim());
  if (!entries.length) throw new TlsConfigError('Targets: list at least one host, address or block.');
  const defaultPorts = parsePortList(typeof config.ports === 'string' && config.ports.trim() ? config.ports : '443', 1000);
  if (typeof defaultPorts === 'string') throw new TlsConfigError(`Ports: ${defaultPorts}`);
  const targets: TargetSpec[] = [];
  for (const entry of entries) {
    const target = parseTarget(entry, defaultPorts);
    if (typeof target === 'string') throw new TlsConfigError(`Targets: ${target}.`);
    targets.push(target);
  }
  const endpointCount = targets.reduce((total, target) => total + (target.kind === 'host' ? 1 : countAddresses(target.ranges)) * target.ports.length, 0);
  if (endpointCount > maximumTlsEndpoints) {
    throw new TlsConfigError(`The targets expand to ${endpointCount.toLocaleString('en')} endpoints; one connection scans at most ${maximumTlsEndpoints.toLocaleString('en')}.`);
  }
  const number = (value: unknown, minimum: number, maximum: number, fallback: number) =>
    typeof value === 'number' && Number.isFinite(value) ? Math.min(maximum, Math.max(minimum, Math.round(value))) : fallback;
  return {
    targets,
    endpointCount,
    concurrency: number(config.concurrency, 1, 256, 32),
    handshakeTimeoutMs: number(config.handshake_timeout_ms, 500, 30_000, 5000),
    customCa: typeof config.custom_ca === 'string' && config.custom_ca.includes('-----BEGIN CERTIFICATE-----') ? config.custom_ca : null,
  };
}

/** Every endpoint of the settings, lazily (a /16 on several ports is never held in memory). */
export function* endpointsOf(settings: TlsScanSettings): Generator<TlsEndpoint> {
  for (const target of settings.targets) {
    if (target.kind === 'host') for (const port of target.ports) yield { host: target.host, port };
    else for (const host of addressesOf(target.ranges)) for (const port of target.ports) yield { host, port };
  }
}
