import { Resolver } from 'node:dns/promises';
import { addressesOf } from '../../../core/network/ipv4Targets.js';
import type { AdapterEngine, FetchedRecord } from '../engine.js';
import { boundedPool } from './boundedPool.js';
import { readNetworkScanSettings, ScanConfigError, type NetworkScanSettings } from './scanSettings.js';
import { guessService, printableBanner } from './serviceGuess.js';
import { probeTcp, type ProbeResult } from './tcpProbe.js';

type OpenPort = Extract<ProbeResult, { state: 'open' }>;
type HostProgress = { remaining: number; open: OpenPort[] };

const unreachableMeaning: Record<string, string> = {
  EHOSTUNREACH: 'no route to the host', ENETUNREACH: 'no route to the network', EACCES: 'the system refused to send (a broadcast address?)',
  EADDRNOTAVAIL: 'no local address for the target', EMFILE: 'too many open files on the Cartograph host',
};

/** Probes ordered host by host, so a host's ports finish close together and its record leaves memory early. */
function* probesOf(settings: NetworkScanSettings, hosts: Map<string, HostProgress>): Generator<{ address: string; port: number }> {
  for (const address of addressesOf(settings.ranges)) {
    hosts.set(address, { remaining: settings.ports.length, open: [] });
    for (const port of settings.ports) yield { address, port };
  }
}

async function reverseName(resolver: Resolver | null, address: string): Promise<string | null> {
  if (!resolver) return null;
  try {
    const [name] = await resolver.reverse(address);
    return name ?? null;
  } catch {
    // No PTR record is the normal case for most addresses.
    return null;
  }
}

async function hostRecords(address: string, open: OpenPort[], resolver: Resolver | null): Promise<FetchedRecord[]> {
  const hostname = await reverseName(resolver, address);
  const seen = new Date().toISOString();
  const services = open.sort((left, right) => left.port - right.port).map((probe) => ({ probe, guess: guessService(probe.port, probe.banner), banner: printableBanner(probe.banner) }));
  const device: FetchedRecord = {
    entity: 'device',
    fields: {
      Hostname: hostname,
      IpAddresses: [address],
      OpenPorts: services.map(({ probe, guess }) => ({ PortNumber: probe.port, Protocol: 'tcp', ServiceName: guess.name })),
      LastSeen: seen,
    },
    raw: { id: address, address, hostname, open_ports: services.map(({ probe, guess, banner }) => ({ port: probe.port, service: guess.name, product: guess.product, version: guess.version, banner })) },
  };
  const serviceRecords: FetchedRecord[] = services.map(({ probe, guess, banner }) => ({
    entity: 'service',
    fields: {
      ServiceName: guess.name, Port: probe.port, Protocol: 'tcp', Host: hostname ?? address, IpAddresses: [address],
      Product: guess.product, Version: guess.version, Banner: banner, IdentifiedBy: guess.source, LastSeen: seen,
    },
    raw: { id: `${address}:${probe.port}/tcp`, address, port: probe.port, banner, service: guess.name },
  }));
  return [device, ...serviceRecords];
}

/** Host records waiting for their reverse DNS answer; bounded so a dense network cannot pile them up. */
const maximumPendingHosts = 32;

/** The network scanner: a TCP connect scan of `scanner_target` ranges with banner grabbing. */
export const networkScannerEngine: AdapterEngine = {
  name: 'network-scanner',

  async test({ config }) {
    try {
      const settings = readNetworkScanSettings(config);
      const probes = settings.addressCount * settings.ports.length;
      const minutes = Math.ceil(probes / settings.rate / 60);
      return { ok: true, detail: `${settings.addressCount.toLocaleString('en')} addresses × ${settings.ports.length} ports = ${probes.toLocaleString('en')} probes, about ${minutes} minute${minutes === 1 ? '' : 's'} at ${settings.rate} probes per second.` };
    } catch (error) {
      if (error instanceof ScanConfigError) return { ok: false, reason: 'invalid_config', detail: error.message };
      throw error;
    }
  },

  async *fetch({ config, signal, warn }) {
    const settings = readNetworkScanSettings(config);
    const resolver = settings.resolveHostnames ? new Resolver({ timeout: Math.min(settings.probeTimeoutMs, 2000), tries: 1 }) : null;
    const hosts = new Map<string, HostProgress>();
    const unreachable = new Map<string, number>();
    const pending: Array<Promise<FetchedRecord[]>> = [];
    const probes = boundedPool(probesOf(settings, hosts), ({ address, port }) => probeTcp(address, port, settings.probeTimeoutMs, settings.bannerMs), {
      concurrency: settings.concurrency, perSecond: settings.rate, signal,
    });
    try {
      for await (const result of probes) {
        const host = hosts.get(result.address)!;
        host.remaining -= 1;
        if (result.state === 'open') host.open.push(result);
        if (result.state === 'unreachable') unreachable.set(result.code, (unreachable.get(result.code) ?? 0) + 1);
        if (host.remaining === 0) {
          hosts.delete(result.address);
          if (host.open.length) pending.push(hostRecords(result.address, host.open, resolver));
        }
        while (pending.length >= maximumPendingHosts) yield* await pending.shift()!;
      }
      while (pending.length) yield* await pending.shift()!;
    } finally {
      resolver?.cancel();
    }
    for (const [code, count] of unreachable) {
      warn(`${count.toLocaleString('en')} of ${(settings.addressCount * settings.ports.length).toLocaleString('en')} probes failed with ${code} (${unreachableMeaning[code] ?? 'network error'}).`);
    }
    if (signal.aborted) warn(`The scan was cancelled before all ${settings.addressCount.toLocaleString('en')} addresses were probed.`);
  },
};
