// Chef's request signing, protocol 1.3, against the vector of Chef's own mixlib-authentication
// (spec/mixlib/authentication/mixlib_authentication_spec.rb): its RSA key, body, path, client and timestamp, and the
// canonical text and X-Ops-Authorization lines it publishes.
import { createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chefCanonicalPath, chefCanonicalRequest, signChefRequest } from '../../../../src/server/adapters/http/chefSignature.js';

const privateKey = createPrivateKey(`-----BEGIN RSA PRIVATE KEY-----
MIIEpAIBAAKCAQEA0ueqo76MXuP6XqZBILFziH/9AI7C6PaN5W0dSvkr9yInyGHS
z/IR1+4tqvP2qlfKVKI4CP6BFH251Ft9qMUBuAsnlAVQ1z0exDtIFFOyQCdR7iXm
jBIWMSS4buBwRQXwDK7id1OxtU23qVJv+xwEV0IzaaSJmaGLIbvRBD+qatfUuQJB
MU/04DdJIwvLtZBYdC2219m5dUBQaa4bimL+YN9EcsDzD9h9UxQo5ReK7b3cNMzJ
BKJWLzFBcJuePMzAnLFktr/RufX4wpXe6XJxoVPaHo72GorLkwnQ0HYMTY8rehT4
mDi1FI969LHCFFaFHSAaRnwdXaQkJmSfcxzCYQIDAQABAoIBAQCW3I4sKN5B9jOe
xq/pkeWBq4OvhW8Ys1yW0zFT8t6nHbB1XrwscQygd8gE9BPqj3e0iIEqtdphbPmj
VHqTYbC0FI6QDClifV7noTwTBjeIOlgZ0NSUN0/WgVzIOxUz2mZ2vBZUovKILPqG
TOi7J7RXMoySMdcXpP1f+PgvYNcnKsT72UcWaSXEV8/zo+Zm/qdGPVWwJonri5Mp
DVm5EQSENBiRyt028rU6ElXORNmoQpVjDVqZ1gipzXkifdjGyENw2rt4V/iKYD7V
5iqXOsvP6Cemf4gbrjunAgDG08S00kiUgvVWcdXW+dlsR2nCvH4DOEe3AYYh/aH8
DxEE7FbtAoGBAPcNO8fJ56mNw0ow4Qg38C+Zss/afhBOCfX4O/SZKv/roRn5+gRM
KRJYSVXNnsjPI1plzqR4OCyOrjAhtuvL4a0DinDzf1+fiztyNohwYsW1vYmqn3ti
EN0GhSgE7ppZjqvLQ3f3LUTxynhA0U+k9wflb4irIlViTUlCsOPkrNJDAoGBANqL
Q+vvuGSsmRLU/Cenjy+Mjj6+QENg51dz34o8JKuVKIPKU8pNnyeLa5fat0qD2MHm
OB9opeQOcw0dStodxr6DB3wi83bpjeU6BWUGITNiWEaZEBrQ0aiqNJJKrrHm8fAZ
9o4l4oHc4hI0kYVYYDuxtKuVJrzZiEapTwoOcYiLAoGBAI/EWbeIHZIj9zOjgjEA
LHvm25HtulLOtyk2jd1njQhlHNk7CW2azIPqcLLH99EwCYi/miNH+pijZ2aHGCXb
/bZrSxM0ADmrZKDxdB6uGCyp+GS2sBxjEyEsfCyvwhJ8b3Q100tqwiNO+d5FCglp
HICx2dgUjuRVUliBwOK93nx1AoGAUI8RhIEjOYkeDAESyhNMBr0LGjnLOosX+/as
qiotYkpjWuFULbibOFp+WMW41vDvD9qrSXir3fstkeIAW5KqVkO6mJnRoT3Knnra
zjiKOITCAZQeiaP8BO5o3pxE9TMqb9VCO3ffnPstIoTaN4syPg7tiGo8k1SklVeH
2S8lzq0CgYAKG2fljIYWQvGH628rp4ZcXS4hWmYohOxsnl1YrszbJ+hzR+IQOhGl
YlkUQYXhy9JixmUUKtH+NXkKX7Lyc8XYw5ETr7JBT3ifs+G7HruDjVG78EJVojbd
8uLA+DdQm5mg4vd1GTiSK65q/3EeoBlUaVor3HhLFki+i9qpT8CBsg==
-----END RSA PRIVATE KEY-----`);

describe("Chef's request signature (version 1.3)", () => {
  it('signs the mixlib-authentication vector to its published headers', () => {
    const headers = signChefRequest({ method: 'POST', url: 'https://chef.example.com/organizations/clownco', body: 'Spec Body', clientName: 'spec-user' }, privateKey, new Date('2009-01-01T12:00:00Z'));
    expect(headers).toEqual({
      'x-ops-sign': 'algorithm=sha256;version=1.3;',
      'x-ops-userid': 'spec-user',
      'x-ops-timestamp': '2009-01-01T12:00:00Z',
      'x-ops-content-hash': 'hDlKNZhIhgso3Fs0S0pZwJ0xyBWtR1RBaeHs1DrzOho=',
      'x-ops-server-api-version': '1',
      'x-ops-authorization-1': 'FZOmXAyOBAZQV/uw188iBljBJXOm+m8xQ/8KTGLkgGwZNcRFxk1m953XjE3W',
      'x-ops-authorization-2': 'VGy1dFT76KeaNWmPCNtDmprfH2na5UZFtfLIKrPv7xm80V+lzEzTd9WBwsfP',
      'x-ops-authorization-3': '42dZ9N+V9I5SVfcL/lWrrlpdybfceJC5jOcP5tzfJXWUITwb6Z3Erg3DU3Uh',
      'x-ops-authorization-4': 'H9h9E0qWlYGqmiNCVrBnpe6Si1gU/Jl+rXlRSNbLJ4GlArAPuL976iTYJTzE',
      'x-ops-authorization-5': 'MmbLUIm3JRYi00Yb01IUCCKdI90vUq1HHNtlTEu93YZfQaJwRxXlGkCNwIJe',
      'x-ops-authorization-6': 'fy49QzaCIEu1XiOx5Jn+4GmkrZch/RrK9VzQWXgs+w==',
    });
  });

  it('builds the canonical text of the vector', () => {
    expect(chefCanonicalRequest('post', '/organizations/clownco', 'hDlKNZhIhgso3Fs0S0pZwJ0xyBWtR1RBaeHs1DrzOho=', '2009-01-01T12:00:00Z', 'spec-user', '1')).toBe(
      'Method:POST\nPath:/organizations/clownco\nX-Ops-Content-Hash:hDlKNZhIhgso3Fs0S0pZwJ0xyBWtR1RBaeHs1DrzOho=\nX-Ops-Sign:version=1.3\nX-Ops-Timestamp:2009-01-01T12:00:00Z\nX-Ops-UserId:spec-user\nX-Ops-Server-API-Version:1',
    );
  });

  it('signs the path without its query, slashes squeezed and the trailing one dropped', () => {
    expect(chefCanonicalPath('/organizations//acme/nodes/')).toBe('/organizations/acme/nodes');
    expect(chefCanonicalPath('/')).toBe('/');
    const atQuery = signChefRequest({ method: 'GET', url: 'https://chef.example.com/organizations/acme/nodes?rows=10', clientName: 'c' }, privateKey, new Date('2024-03-14T08:00:00.123Z'));
    const atPath = signChefRequest({ method: 'GET', url: 'https://chef.example.com/organizations/acme/nodes', clientName: 'c' }, privateKey, new Date('2024-03-14T08:00:00Z'));
    expect(atQuery).toEqual(atPath);
    expect(atPath['x-ops-content-hash']).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
  });
});
