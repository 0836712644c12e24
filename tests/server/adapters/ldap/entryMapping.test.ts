import { describe, expect, it } from 'vitest';
import {
  computerFields, domainOfDn, formatGuid, formatSid, fromFileTime, fromGeneralizedTime, parentOfDn, rawRecord, userFields,
} from '../../../../src/server/adapters/ldap/entryMapping.js';

function sidBytes(authority: number, parts: number[]): Buffer {
  const bytes = Buffer.alloc(8 + parts.length * 4);
  bytes[0] = 1;
  bytes[1] = parts.length;
  bytes.writeUIntBE(authority, 2, 6);
  parts.forEach((part, index) => bytes.writeUInt32LE(part, 8 + index * 4));
  return bytes;
}

describe('directory value conversions', () => {
  it('turns Windows file times into dates and treats 0 and "never" as no date', () => {
    expect(fromFileTime('133485408000000000')).toBe('2024-01-01T00:00:00.000Z');
    expect(fromFileTime('116444736000000000')).toBe('1970-01-01T00:00:00.000Z');
    expect(fromFileTime('0')).toBeNull();
    expect(fromFileTime('9223372036854775807')).toBeNull();
    expect(fromFileTime('yesterday')).toBeNull();
    expect(fromFileTime(null)).toBeNull();
  });

  it('reads generalized times with and without fractions or offsets', () => {
    expect(fromGeneralizedTime('20240115093000.0Z')).toBe('2024-01-15T09:30:00.000Z');
    expect(fromGeneralizedTime('20240115093000Z')).toBe('2024-01-15T09:30:00.000Z');
    expect(fromGeneralizedTime('20240115113000+0200')).toBe('2024-01-15T09:30:00.000Z');
    expect(fromGeneralizedTime('2024-01-15')).toBeNull();
  });

  it('formats binary objectGUID and objectSid values the way Windows prints them', () => {
    expect(formatGuid(Buffer.from('e004253f894fd3119a0c0305e82c3301', 'hex'))).toBe('3f2504e0-4f89-11d3-9a0c-0305e82c3301');
    expect(formatGuid(Buffer.alloc(3))).toBeNull();
    expect(formatSid(sidBytes(5, [21, 1004336348, 1177238915, 682003330, 512]))).toBe('S-1-5-21-1004336348-1177238915-682003330-512');
    expect(formatSid(Buffer.from([1, 5, 0]))).toBeNull();
  });

  it('derives the DNS domain and the parent container from a DN, escaped commas included', () => {
    expect(domainOfDn('CN=PC1,OU=Laptops,DC=corp,DC=Example,DC=com')).toBe('corp.example.com');
    expect(domainOfDn('cn=admin')).toBeNull();
    expect(parentOfDn('CN=Smith\\, John,OU=People,DC=corp,DC=com')).toBe('OU=People,DC=corp,DC=com');
  });
});

describe('directory entries as Cartograph records', () => {
  it('maps an Active Directory user, reading attribute names in any case', () => {
    const fields = userFields({
      dn: 'CN=Jane Doe,OU=Staff,DC=corp,DC=example', samaccountname: 'jdoe', mail: 'jane@corp.example', userAccountControl: '66050',
      memberOf: ['CN=Enterprise Admins,CN=Users,DC=corp,DC=example'], lockoutTime: '0', whenCreated: '20200301120000.0Z',
    });
    expect(fields).toMatchObject({
      Username: 'jdoe', Email: ['jane@corp.example'], DisplayName: null, Domain: 'corp.example', Groups: ['Enterprise Admins'], AdminStatus: true,
      Enabled: false, Locked: false, CreatedTime: '2020-03-01T12:00:00.000Z',
    });
  });

  it('maps a FreeIPA host and a FreeIPA user locked with nsAccountLock', () => {
    expect(computerFields({ dn: 'fqdn=web01.ipa.example,cn=computers,cn=accounts,dc=ipa,dc=example', fqdn: 'web01.ipa.example', nsOsVersion: '9.3', nsHardwarePlatform: 'x86_64' }))
      .toMatchObject({ Hostname: 'web01.ipa.example', Domain: 'ipa.example', 'OS.Version': '9.3', DeviceModel: 'x86_64', Category: null });
    expect(userFields({ dn: 'uid=ann,cn=users,cn=accounts,dc=ipa,dc=example', uid: 'ann', cn: 'Ann Lee', nsAccountLock: 'TRUE' }))
      .toMatchObject({ Username: 'ann', DisplayName: 'Ann Lee', Enabled: false, Locked: null, Domain: 'ipa.example' });
  });

  it('keeps the raw entry with binary identifiers in text form', () => {
    const raw = rawRecord({ dn: 'CN=PC1,DC=corp', cn: 'PC1', objectGUID: Buffer.from('e004253f894fd3119a0c0305e82c3301', 'hex'), servicePrincipalName: ['HOST/pc1', 'HOST/pc1.corp'] });
    expect(raw).toEqual({ dn: 'CN=PC1,DC=corp', cn: 'PC1', objectGUID: '3f2504e0-4f89-11d3-9a0c-0305e82c3301', servicePrincipalName: ['HOST/pc1', 'HOST/pc1.corp'] });
  });
});
