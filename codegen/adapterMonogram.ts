// The monogram icon of an adapter without a brand mark (the name's initials on a colour derived from the slug):
// written by codegen/adapterIcons.ts for the catalogue and by the adapter kit for a scaffolded adapter.

export function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A stable colour per slug (FNV-1a hash → hue), dark enough for white initials. */
function colourOf(slug: string): string {
  let hash = 0x811c9dc5;
  for (const character of slug) hash = Math.imul(hash ^ character.charCodeAt(0), 0x01000193) >>> 0;
  return `hsl(${hash % 360}, 55%, 38%)`;
}

/** "Tenable Nessus" → "TN", "Zabbix" → "ZA", "1Password" → "1P": letters of the name without its parenthesised part. */
function initialsOf(name: string): string {
  const words = name.replace(/\([^)]*\)/g, ' ').split(/[\s\-/.:&!]+/).filter((word) => /[A-Za-z0-9]/.test(word));
  const letters = words.length > 1 ? words.slice(0, 2).map((word) => word[0]).join('') : (words[0] ?? '?').slice(0, 2);
  return letters.toUpperCase();
}

export function monogramSvg(slug: string, name: string): string {
  const initials = escapeXml(initialsOf(name));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" role="img"><title>${escapeXml(name)}</title>`,
    `<rect width="24" height="24" rx="5" fill="${colourOf(slug)}"/>`,
    `<text x="12" y="12" dy="0.35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="${initials.length > 1 ? 10 : 13}" font-weight="600" fill="#ffffff">${initials}</text>`,
    '</svg>\n',
  ].join('');
}
