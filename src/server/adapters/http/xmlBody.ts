// XML answers (Qualys, Nessus exports): parsed with fast-xml-parser into plain data templates can read. Nothing is
// ever expanded beyond the document itself: external entities are not fetched, and a DOCTYPE that declares entities
// (the billion-laughs and external-entity attacks both need one) is refused before parsing.
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** Raised for XML that is malformed, truncated or declares entities; the message is safe to show. */
export class XmlBodyError extends Error {}

/** The DOCTYPE's internal subset (`[...]`), if the prolog has one; only the prolog is read. */
function internalSubset(text: string): string | null {
  const start = text.search(/<!DOCTYPE/i);
  if (start === -1) return null;
  // A DOCTYPE after the root element's start is not a DOCTYPE (it would be text inside CDATA or a comment).
  const beforeDoctype = text.slice(0, start).replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|\s+/g, '');
  if (beforeDoctype !== '') return null;
  const open = text.indexOf('[', start);
  const close = text.indexOf('>', start);
  if (open === -1 || (close !== -1 && close < open)) return null;
  const end = text.indexOf(']', open);
  return text.slice(open, end === -1 ? undefined : end);
}

const parserFor = (listElements: readonly string[], stripPrefixes: boolean) => {
  const lists = new Set(listElements);
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    textNodeName: '#text',
    // Values stay text: "00123" and "1.10" must not become numbers; manifests convert with `| number`.
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    // The five XML entities and character references are decoded; declared entities never are (refused above).
    htmlEntities: true,
    processEntities: { enabled: true, maxEntityCount: 0 },
    // Qualys nests HOST_LIST/HOST/DETECTION_LIST/DETECTION: deeper than 100 levels is not a vendor answer.
    maxNestedTags: 100,
    // `s:Envelope` → `Envelope` (and `xmlns:*` attributes dropped) when asked: one manifest then reads any prefixes.
    removeNSPrefix: stripPrefixes,
    isArray: (name, _path, _isLeaf, isAttribute) => !isAttribute && lists.has(name),
  });
};

/**
 * Parses an XML answer. `listElements` name the elements that are always lists, even when the answer holds
 * just one (otherwise a single `<HOST>` would come out as an object, two as a list).
 * Before: `<HOST_LIST><HOST><ID>1</ID></HOST></HOST_LIST>` with `["HOST"]`; after: `{HOST_LIST: {HOST: [{ID: "1"}]}}`.
 */
export function parseXmlBody(text: string, listElements: readonly string[] = [], options: { stripPrefixes?: boolean } = {}): unknown {
  const subset = internalSubset(text);
  if (subset !== null && /<!ENTITY/i.test(subset)) throw new XmlBodyError('the XML declares entities in its DOCTYPE (<!ENTITY>); Cartograph never expands them (external entity and billion-laughs attacks), so the answer is refused');
  const validation = XMLValidator.validate(text);
  if (validation !== true) throw new XmlBodyError(`invalid or truncated XML (line ${validation.err.line}, column ${validation.err.col}): ${validation.err.msg}`);
  try {
    const parsed = parserFor(listElements, options.stripPrefixes ?? false).parse(text) as Record<string, unknown>;
    delete parsed['?xml'];
    return parsed;
  } catch (error) {
    throw new XmlBodyError(`XML refused: ${(error as Error).message}`);
  }
}
