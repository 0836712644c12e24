import { countAddresses, parsePortList, parseScannerTargets, parseTargetTerm, subtractRanges, type Ipv4Range } from '../../../core/network/ipv4Targets.js';
import { scanLimits } from '../../../core/network/scanLimits.js';
import type { ConnectionConfig } from '../engine.js';


/** A scan configuration the engine refuses, with a message naming the field and the numbers involved. */
export class ScanConfigError extends Error {}

export type NetworkScanSettings = {
  ranges: Ipv4Range[];
  addressCount: number;
  ports: number[];
  rate: number;
  concurrency: number;
  probeTimeoutMs: number;
  bannerMs: number;
  resolveHostnames: boolean;
};

const integerIn = (value: unknown, minimum: number, maximum: number, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(maximum, Math.max(minimum, Math.round(value))) : fallback;

/**
 * Reads the network scanner's connection options, applying exclusions and the caps.
 * Before: `{targets: "10.0.0.0/30", ports: "22,80", exclude: ["10.0.0.2"]}`; after: `{ranges: [10.0.0.1], addressCount: 1, ports: [22, 80], …}`.
 */
export function readNetworkScanSettings(config: ConnectionConfig): NetworkScanSettings {
  const targets = parseScannerTargets(typeof config.targets === 'string' ? config.targets : '');
  if (!targets.ok) throw new ScanConfigError(`Targets: ${targets.error}`);
  const excluded: Ipv4Range[] = [];
  for (const entry of Array.isArray(config.exclude) ? config.exclude : []) {
    const range = parseTargetTerm(String(entry));
    // An exclusion that cannot be read must stop the scan: it may protect a fragile device.
    if (typeof range === 'string') throw new ScanConfigError(`Exclusions: ${range}.`);
    excluded.push(range);
  }
  const ranges = subtractRanges(targets.ranges, excluded);
  const addressCount = countAddresses(ranges);
  if (!addressCount) throw new ScanConfigError('Every target address is excluded: nothing is left to scan.');
  if (addressCount > scanLimits.addresses) {
    throw new ScanConfigError(`Targets hold ${addressCount.toLocaleString('en')} addresses; one connection scans at most ${scanLimits.addresses.toLocaleString('en')} (a /16). Split the range over several connections.`);
  }
  const ports = parsePortList(typeof config.ports === 'string' && config.ports.trim() ? config.ports : scanLimits.defaultPorts);
  if (typeof ports === 'string') throw new ScanConfigError(`Ports: ${ports}`);
  const probes = addressCount * ports.length;
  if (probes > scanLimits.probes) {
    throw new ScanConfigError(`${addressCount.toLocaleString('en')} addresses × ${ports.length.toLocaleString('en')} ports make ${probes.toLocaleString('en')} probes; the limit is ${scanLimits.probes.toLocaleString('en')}. Narrow the targets or the ports.`);
  }
  const rate = integerIn(config.rate, 1, 10_000, scanLimits.defaultRate);
  const probeTimeoutMs = integerIn(config.probe_timeout_ms, 100, 10_000, 1500);
  return {
    ranges, addressCount, ports, rate, probeTimeoutMs,
    // Enough sockets in flight to sustain the rate while each waits out its timeout, within the fd budget.
    concurrency: Math.max(1, Math.min(512, Math.ceil((rate * probeTimeoutMs) / 1000))),
    bannerMs: Math.min(probeTimeoutMs, 1000),
    resolveHostnames: config.resolve_hostnames !== false,
  };
}
