import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { issueCertificate, type TestCertificate } from './testCertificates.js';

/**
 * A SAML 2.0 identity provider for tests: it reads the AuthnRequest a service provider redirects the browser with
 * (HTTP-Redirect binding) and answers it as a real provider does (HTTP-POST binding): a samlp:Response whose
 * assertion is signed (RSA-SHA256, exclusive C14N) with the provider's key.
 */
export type SamlAccount = { nameId: string; attributes: Record<string, string[]> };
export type SamlRequest = { id: string; assertionConsumerServiceUrl: string; issuer: string; relayState: string };
export type SamlAnswerOptions = {
  /** Signs with another key than the one the service provider trusts. */
  signingKey?: TestCertificate;
  /** Changes the signed XML afterwards (a tampering test). */
  afterSigning?: (xml: string) => string;
  /** Answers to another request id than the one read. */
  inResponseTo?: string;
};

export const idpEntityId = 'https://idp.test.example/saml';

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const newId = () => `_${randomBytes(16).toString('hex')}`;

/** The AuthnRequest carried by a redirect URL to the provider. */
export function readAuthnRequest(authorizationUrl: string): SamlRequest {
  const url = new URL(authorizationUrl);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const value = (pattern: RegExp) => pattern.exec(xml)?.[1] ?? '';
  return {
    id: value(/\sID="([^"]+)"/),
    assertionConsumerServiceUrl: value(/AssertionConsumerServiceURL="([^"]+)"/),
    issuer: value(/<saml:Issuer[^>]*>([^<]+)<\/saml:Issuer>/),
    relayState: url.searchParams.get('RelayState') ?? '',
  };
}

export function startSamlIdp() {
  const signing = issueCertificate({ commonName: 'Test SAML IdP' }, null);
  return {
    certificate: signing.cert,
    /** The base64 samlp:Response the provider posts back for `account`, answering `request`. */
    answer(request: SamlRequest, account: SamlAccount, options: SamlAnswerOptions = {}): string {
      const now = new Date();
      const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();
      const inResponseTo = attribute(options.inResponseTo ?? request.id);
      const recipient = attribute(request.assertionConsumerServiceUrl);
      const attributes = Object.entries(account.attributes)
        .map(([name, values]) => `<saml:Attribute Name="${attribute(name)}">${values.map((value) => `<saml:AttributeValue>${attribute(value)}</saml:AttributeValue>`).join('')}</saml:Attribute>`)
        .join('');
      const xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${at(0)}" Destination="${recipient}" InResponseTo="${inResponseTo}">`
        + `<saml:Issuer>${idpEntityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>`
        + `<saml:Assertion ID="${newId()}" Version="2.0" IssueInstant="${at(0)}"><saml:Issuer>${idpEntityId}</saml:Issuer>`
        + `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${attribute(account.nameId)}</saml:NameID>`
        + `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${inResponseTo}" NotOnOrAfter="${at(5)}" Recipient="${recipient}"/></saml:SubjectConfirmation></saml:Subject>`
        + `<saml:Conditions NotBefore="${at(-1)}" NotOnOrAfter="${at(5)}"><saml:AudienceRestriction><saml:Audience>${attribute(request.issuer)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`
        + `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${newId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`
        + `<saml:AttributeStatement>${attributes}</saml:AttributeStatement></saml:Assertion></samlp:Response>`;
      const key = options.signingKey ?? signing;
      const signature = new SignedXml({ privateKey: key.key, publicCert: key.cert, signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#' });
      signature.addReference({
        xpath: "//*[local-name(.)='Assertion']",
        transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
        digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      });
      signature.computeSignature(xml, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
      const signed = (options.afterSigning ?? ((text: string) => text))(signature.getSignedXml());
      return Buffer.from(signed, 'utf8').toString('base64');
    },
  };
}
