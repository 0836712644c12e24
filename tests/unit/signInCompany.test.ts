import { describe, expect, it } from 'vitest';
import { splitQualifiedName } from '../../src/server/identity/ldap/signInCompany.js';

describe('the domain a sign-in name carries', () => {
  it('reads user@domain and DOMAIN\\user, and a bare name as no domain', () => {
    expect(splitQualifiedName('alice@corp.example')).toEqual({ account: 'alice', domain: 'corp.example', netbios: false });
    expect(splitQualifiedName('CORP\\alice')).toEqual({ account: 'alice', domain: 'CORP', netbios: true });
    expect(splitQualifiedName('alice')).toEqual({ account: 'alice', domain: null, netbios: false });
  });

  it('takes the last @ as the separator, and names without an account or a domain as bare', () => {
    expect(splitQualifiedName('first.last@eu@corp.example')).toEqual({ account: 'first.last@eu', domain: 'corp.example', netbios: false });
    for (const bare of ['@corp.example', 'alice@', '\\alice', 'CORP\\']) expect(splitQualifiedName(bare)).toEqual({ account: bare, domain: null, netbios: false });
  });
});
