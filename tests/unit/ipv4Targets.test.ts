import { describe, expect, it } from 'vitest';
import {
  addressesOf, countAddresses, formatIpv4, isScannerTarget, mergeRanges, parseIpv4, parsePortList, parseScannerTargets, subtractRanges,
} from '../../src/core/network/ipv4Targets.js';

const range = (first: string, last: string) => ({ first: parseIpv4(first)!, last: parseIpv4(last)! });

describe('scanner targets', () => {
  it('round-trips IPv4 addresses through their integer form, including the top of the space', () => {
    for (const address of ['0.0.0.0', '10.0.0.1', '192.168.255.254', '255.255.255.255']) expect(formatIpv4(parseIpv4(address)!)).toBe(address);
    expect(parseIpv4('255.255.255.255')).toBe(0xffffffff);
  });

  it('rejects addresses with leading zeros, out-of-range octets or missing parts', () => {
    for (const text of ['256.0.0.1', '10.0.0', '10.0.0.01', '1.2.3.4.5', 'host.example', '']) expect(parseIpv4(text)).toBeNull();
  });

  it('reads single addresses, CIDR blocks and ranges, merging overlaps', () => {
    const parsed = parseScannerTargets('10.0.0.0/30, 10.0.0.9-10.0.0.10,10.0.0.10, 192.168.1.7/32');
    expect(parsed).toEqual({ ok: true, ranges: [range('10.0.0.1', '10.0.0.2'), range('10.0.0.9', '10.0.0.10'), range('192.168.1.7', '192.168.1.7')] });
  });

  it('normalises a CIDR given with host bits set and keeps both addresses of a /31', () => {
    expect(parseScannerTargets('10.1.2.77/24')).toEqual({ ok: true, ranges: [range('10.1.2.1', '10.1.2.254')] });
    expect(parseScannerTargets('10.1.2.5/31')).toEqual({ ok: true, ranges: [range('10.1.2.4', '10.1.2.5')] });
  });

  it('accepts /8 as the widest block and counts its addresses', () => {
    const parsed = parseScannerTargets('10.0.0.0/8');
    expect(parsed.ok && countAddresses(parsed.ranges)).toBe(2 ** 24 - 2);
  });

  it('explains what is wrong with a bad target', () => {
    expect(parseScannerTargets('10.0.0.0/7')).toEqual({ ok: false, error: '"10.0.0.0/7" needs a CIDR suffix from /8 to /32.' });
    expect(parseScannerTargets('10.0.0.9-10.0.0.1')).toEqual({ ok: false, error: '"10.0.0.9-10.0.0.1" ends before it starts.' });
    expect(parseScannerTargets('10.0.0.1,,10.0.0.2')).toMatchObject({ ok: false, error: expect.stringContaining('empty entry') });
    expect(parseScannerTargets('example.com')).toMatchObject({ ok: false });
    expect(isScannerTarget('10.0.0.1, 10.0.0.0/24')).toBe(true);
    expect(isScannerTarget(' ')).toBe(false);
  });

  it('subtracts exclusions and walks the remaining addresses in order', () => {
    const remaining = subtractRanges([range('10.0.0.1', '10.0.0.6')], [range('10.0.0.3', '10.0.0.4'), range('10.0.0.6', '10.0.0.9')]);
    expect([...addressesOf(remaining)]).toEqual(['10.0.0.1', '10.0.0.2', '10.0.0.5']);
    expect(mergeRanges([range('10.0.0.5', '10.0.0.6'), range('10.0.0.1', '10.0.0.4')])).toEqual([range('10.0.0.1', '10.0.0.6')]);
  });
});

describe('port lists', () => {
  it('expands ranges and removes duplicates', () => {
    expect(parsePortList('443, 22,8080-8082,22')).toEqual([22, 443, 8080, 8081, 8082]);
  });

  it('rejects ports outside 1–65535, reversed ranges, garbage and oversized lists', () => {
    expect(parsePortList('0')).toMatch(/outside/);
    expect(parsePortList('70000')).toMatch(/outside/);
    expect(parsePortList('90-80')).toMatch(/ends before/);
    expect(parsePortList('http')).toMatch(/not a port/);
    expect(parsePortList('1-2000', 1000)).toMatch(/more than 1000/);
  });
});
