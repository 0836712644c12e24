// Windows integrated sign-in (`ntlm` authenticator) over the engine's transport: the NEGOTIATE → 401 CHALLENGE →
// AUTHENTICATE handshake of [MS-NLMP] over HTTP. NTLM authenticates the connection, not the request, so the session
// sends everything over one kept-alive connection (its dispatcher holds a single connection) and handshakes again
// only when the server asks again (a new connection after the old one closed answers 401).
import { ntlmAccount, authenticate, negotiateMessage, parseChallengeMessage, type NtlmCredentials } from './ntlm.js';
import { render, toText, type Scope } from './template.js';
import type { OutgoingRequest, RawResponse } from './transport.js';

/** The schemes a 401 offers (`WWW-Authenticate: Negotiate, NTLM`) and the token a scheme carries, if any. */
export function offeredSchemes(headers: Record<string, string>): Map<string, string> {
  const offered = new Map<string, string>();
  // Several WWW-Authenticate headers arrive joined with ", "; NTLM tokens are base64 and hold no comma or space.
  for (const part of (headers['www-authenticate'] ?? '').split(/,\s*/)) {
    const [scheme, token] = part.trim().split(/\s+/, 2);
    if (scheme) offered.set(scheme.toLowerCase(), token ?? '');
  }
  return offered;
}

const withAuthorization = (outgoing: OutgoingRequest, value: string): OutgoingRequest => ({ ...outgoing, headers: { ...outgoing.headers, authorization: value } });

export class NtlmHandshake {
  /** Whether the connection the dispatcher holds has authenticated (false before the first handshake). */
  private authenticated = false;
  /**
   * Bare requests on the authenticated connection refused in a row. From two on, every request leads with the
   * handshake: that server authenticates each request, not the connection (.NET's HttpListener by default).
   */
  private refusedInARow = 0;

  constructor(
    private readonly credentials: () => NtlmCredentials,
    private readonly send: (outgoing: OutgoingRequest) => Promise<RawResponse>,
  ) {}

  /** Sends a request on the authenticated connection, authenticating it first when it is not (or no longer) so. */
  async request(outgoing: OutgoingRequest): Promise<RawResponse> {
    if (this.authenticated && this.refusedInARow < 2) {
      const answer = await this.send(outgoing);
      const offered = offeredSchemes(answer.headers);
      if (answer.status !== 401 || !(offered.has('ntlm') || offered.has('negotiate'))) {
        this.refusedInARow = 0;
        return answer;
      }
      this.refusedInARow += 1;
    }
    return this.handshake(outgoing);
  }

  /**
   * The three-message handshake, each message carried by the request itself (as browsers and .NET do), so a server
   * that needs no sign-in answers at once. Answers the final answer: a 401 then means the account was refused.
   */
  private async handshake(outgoing: OutgoingRequest): Promise<RawResponse> {
    const negotiate = negotiateMessage();
    let scheme = 'NTLM';
    let answer = await this.send(withAuthorization(outgoing, `${scheme} ${negotiate.toString('base64')}`));
    let offered = offeredSchemes(answer.headers);
    // A server that offers Negotiate alone takes the raw NTLM token under that scheme (SPNEGO accepts NTLMSSP).
    if (answer.status === 401 && !offered.has('ntlm') && offered.get('negotiate') === '') {
      scheme = 'Negotiate';
      answer = await this.send(withAuthorization(outgoing, `${scheme} ${negotiate.toString('base64')}`));
      offered = offeredSchemes(answer.headers);
    }
    if (answer.status !== 401) {
      this.authenticated = answer.status < 400;
      return answer;
    }
    const token = offered.get(scheme.toLowerCase());
    // Only the server the request is for may challenge it: a 401 from where a redirect led is answered as it is.
    if (!token || new URL(answer.url).origin !== new URL(outgoing.url).origin) return answer;
    const challenge = parseChallengeMessage(Buffer.from(token, 'base64'));
    const message = authenticate(negotiate, challenge, this.credentials(), { spn: `HTTP/${new URL(outgoing.url).hostname}` });
    answer = await this.send(withAuthorization(outgoing, `${scheme} ${message.toString('base64')}`));
    this.authenticated = answer.status !== 401;
    return answer;
  }
}

/** The account an `ntlm` authenticator names, its templates rendered (`CORP\jdoe` or a UPN; an explicit domain wins). */
export function accountOf(spec: { username: string; password: string; domain?: string; workstation?: string }, scope: Scope): NtlmCredentials {
  const field = (template: string | undefined) => toText(render(template ?? '', scope));
  return ntlmAccount(field(spec.username).trim(), field(spec.password), field(spec.domain).trim(), field(spec.workstation).trim());
}
