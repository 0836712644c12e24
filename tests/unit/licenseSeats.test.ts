import { describe, expect, it } from 'vitest';
import { licenseAsset, seatTypeOf, type LicenseEntry } from '../../src/server/discovery/licenses/licenseStage.js';

const entry = (metric: string | null, seats: number, reportedUsed: number | null, expiration: string | null): LicenseEntry => ({
  name: 'Visio', vendor: 'Microsoft', softwareName: null, skus: new Set(), metric, byConnection: new Map([[1, { seats, reportedUsed, cost: null }]]),
  expiration, purchase: null, currency: null, users: new Map(), adapters: new Set(['csvfile']), connections: new Set([1]), recordKeys: [],
});
const software = { asset_id: 'visio', installs: 90 };
const now = new Date('2026-06-01T00:00:00Z');

describe('license seats', () => {
  it('reads the seat type from the metric a source writes', () => {
    expect([seatTypeOf('named user'), seatTypeOf('per device'), seatTypeOf('node'), seatTypeOf('concurrent'), seatTypeOf(null)]).toEqual(['user', 'device', 'device', null, null]);
  });

  it('counts users, never devices, for a per-user license, and says which count it is and why', () => {
    const asset = licenseAsset('l1', entry('user', 100, null, null), software, 40, now);
    expect(asset.fields).toMatchObject({ SeatType: ['user'], SeatsUsed: [40], SeatsUsedBy: ['assigned_users'], SeatsFree: [60], InstalledDevices: [90], Expired: [false] });
    expect(asset.fields.SeatsUsedReason![0]).toBe('A seat is a user: seats used are the users it is assigned to (40).');
    const reported = licenseAsset('l1', entry('user', 100, 55, null), software, 40, now);
    expect(reported.fields).toMatchObject({ SeatsUsed: [55], SeatsUsedBy: ['reported'] });
    expect(reported.fields.SeatsUsedReason![0]).toBe('A seat is a user: seats used are the count its source reports (55), the largest against 40 assigned users.');
  });

  it('counts devices for a per-device license, and the largest of all when the seat type is not said', () => {
    expect(licenseAsset('l1', entry('device', 100, null, null), software, 140, now).fields).toMatchObject({ SeatsUsed: [90], SeatsUsedBy: ['installed_devices'] });
    const unsaid = licenseAsset('l1', entry(null, 100, null, null), software, 140, now).fields;
    expect([unsaid.SeatsUsed, unsaid.SeatsUsedBy, unsaid.SeatType]).toEqual([[140], ['assigned_users'], undefined]);
  });

  it('marks an expired license expired, with no seat free', () => {
    const expired = licenseAsset('l1', entry('user', 100, null, '2026-01-31T00:00:00.000Z'), software, 40, now);
    expect(expired.fields).toMatchObject({ Expired: [true], SeatsFree: [0], SeatsUsed: [40] });
    expect(licenseAsset('l1', entry('user', 100, null, '2027-01-31T00:00:00.000Z'), software, 40, now).fields).toMatchObject({ Expired: [false], SeatsFree: [60] });
  });
});
