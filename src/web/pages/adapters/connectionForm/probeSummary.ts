import { t } from '../../../app/i18n/messages';
import { countAddresses, parsePortList, parseScannerTargets, parseTargetTerm, subtractRanges, type Ipv4Range } from '../../../../core/network/ipv4Targets.js';
import { scanLimits } from '../../../../core/network/scanLimits.js';

/** What a network scan of the form's settings would do, or why the engine would refuse it. */
export type ProbeSummary =
  | { ok: true; addresses: number; ports: number; probes: number; rate: number; seconds: number }
  | { ok: false; field: 'targets' | 'exclude' | 'ports'; message: string; addresses?: number; ports?: number; probes?: number };

const count = (value: number) => value.toLocaleString('en');

/**
 * Addresses × ports = probes for the scanner's settings, with the same parsing, exclusions and caps as the engine.
 * Before: `{ targets: '10.0.0.0/30', ports: '22,80' }`; after: `{ ok: true, addresses: 2, ports: 2, probes: 4, … }`.
 */
export function probeSummary(values: Record<string, unknown>): ProbeSummary {
  const targets = parseScannerTargets(typeof values.targets === 'string' ? values.targets : '');
  if (!targets.ok) return { ok: false, field: 'targets', message: targets.error };
  const excluded: Ipv4Range[] = [];
  for (const entry of Array.isArray(values.exclude) ? values.exclude : []) {
    if (typeof entry !== 'string' || !entry.trim()) continue;
    const range = parseTargetTerm(entry);
    if (typeof range === 'string') return { ok: false, field: 'exclude', message: `${range[0]!.toUpperCase()}${range.slice(1)}.` };
    excluded.push(range);
  }
  const addresses = countAddresses(subtractRanges(targets.ranges, excluded));
  if (!addresses) return { ok: false, field: 'targets', message: t('adapters.everyTargetAddressExcluded'), addresses };
  if (addresses > scanLimits.addresses) {
    return { ok: false, field: 'targets', addresses, message: t('adapters.targetsHoldCountAddresses', { count: count(addresses), count2: count(scanLimits.addresses) }) };
  }
  const portText = typeof values.ports === 'string' && values.ports.trim() ? values.ports : scanLimits.defaultPorts;
  const ports = parsePortList(portText);
  if (typeof ports === 'string') return { ok: false, field: 'ports', message: ports, addresses };
  const probes = addresses * ports.length;
  if (probes > scanLimits.probes) {
    return { ok: false, field: 'ports', addresses, ports: ports.length, probes, message: t('adapters.countAddressesCount2Ports', { count: count(addresses), count2: count(ports.length), count3: count(probes), count4: count(scanLimits.probes) }) };
  }
  const rate = typeof values.rate === 'number' && values.rate >= 1 ? Math.min(10_000, Math.round(values.rate)) : scanLimits.defaultRate;
  return { ok: true, addresses, ports: ports.length, probes, rate, seconds: Math.ceil(probes / rate) };
}

/** "about 3 min" for a duration in seconds. */
export function durationText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min`;
  return `about ${(seconds / 3600).toFixed(1)} h`;
}

/** The one-line summary: "254 addresses × 10 ports = 2,540 probes, about 13 s at 200 probes/s". */
export function summaryText(summary: Extract<ProbeSummary, { ok: true }>): string {
  return `${count(summary.addresses)} ${summary.addresses === 1 ? 'address' : 'addresses'} × ${count(summary.ports)} ${summary.ports === 1 ? 'port' : 'ports'} = ${count(summary.probes)} probes, ${durationText(summary.seconds)} at ${count(summary.rate)} probes/s`;
}
