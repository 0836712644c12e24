import cvssCalculator from 'ae-cvss-calculator';

// CVSS vectors are parsed and scored by the metæffekt calculator (ae-cvss-calculator: FIRST's CVSS 2.0, 3.0, 3.1
// and 4.0 specifications), never by hand; Cartograph only decides which version's score a list shows.

export type CvssVersion = '2.0' | '3.0' | '3.1' | '4.0';
export type CvssResult = { version: CvssVersion; vector: string; base: number };

type CalculatorVector = { getVectorName(): string; calculateScores(): { base?: number }; toString(): string } | null | undefined;

/**
 * A vector's version and base score, or null when it is not a complete CVSS vector (missing base metrics, unknown
 * values, garbage). v2 vectors may come with or without parentheses.
 * Before: `"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"`; after: `{version: "3.1", base: 9.8}`.
 */
export function scoreVector(raw: unknown): CvssResult | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim().replace(/^\((.*)\)$/, '$1');
  if (!text || text.length > 300 || !/^(CVSS:[0-9.]+\/)?[A-Za-z]+:[A-Za-z]/.test(text)) return null;
  let parsed: CalculatorVector;
  try {
    parsed = cvssCalculator.fromVector(text) as CalculatorVector;
  } catch {
    return null;
  }
  if (!parsed) return null;
  const version = parsed.getVectorName().replace(/^CVSS:/, '') as CvssVersion;
  let base: number | undefined;
  try {
    base = parsed.calculateScores().base;
  } catch {
    return null;
  }
  // An incomplete vector parses (its missing metrics as "not defined") but has no base score.
  if (typeof base !== 'number' || !Number.isFinite(base) || !['2.0', '3.0', '3.1', '4.0'].includes(version)) return null;
  return { version, vector: text, base };
}

export type Severity = 'Critical' | 'High' | 'Medium' | 'Low' | 'Info';
export const severityLevels: Record<Severity, number> = { Critical: 4, High: 3, Medium: 2, Low: 1, Info: 0 };
const byLevel: Severity[] = ['Info', 'Low', 'Medium', 'High', 'Critical'];

const severityWords: Record<string, Severity> = {
  critical: 'Critical', crit: 'Critical', urgent: 'Critical', emergency: 'Critical',
  high: 'High', important: 'High', severe: 'High', serious: 'High',
  medium: 'Medium', moderate: 'Medium', med: 'Medium',
  low: 'Low', minor: 'Low',
  info: 'Info', informational: 'Info', information: 'Info', none: 'Info', negligible: 'Info', log: 'Info',
};

/** The lowest score of each band above Low. */
export type SeverityBands = { critical: number; high: number; medium: number };

/** The severity band of a CVSS base score (FIRST CVSS v3.1 specification, section 5; 0 is None, shown as Info). */
export function severityOfScore(score: number): Severity {
  return severityInBands(score, { critical: 9, high: 7, medium: 4 });
}

/** The severity band of a score with the bands a company configured. */
export function severityInBands(score: number, bands: SeverityBands): Severity {
  return score >= bands.critical ? 'Critical' : score >= bands.high ? 'High' : score >= bands.medium ? 'Medium' : score > 0 ? 'Low' : 'Info';
}

/**
 * A source's severity as one of five, or null when it cannot be read. Words (`critical`, `Important`), the 1–5
 * scales scanners use (`4`, `"Sev 4"`, `"Level 5"`: 5 is Critical, 1 Info), and scores with a decimal point
 * (`7.5`, read as a CVSS score) are understood.
 */
export function normalizeSeverity(raw: unknown): Severity | null {
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw) || raw < 0 || raw > 10) return null;
    return Number.isInteger(raw) && raw <= 5 ? byLevel[Math.max(raw - 1, 0)] : severityOfScore(raw);
  }
  if (typeof raw !== 'string') return null;
  const text = raw.trim().toLowerCase();
  if (severityWords[text]) return severityWords[text];
  const scale = /^(?:sev(?:erity)?|level|lvl|s)?[\s.:_-]*([0-9]+(?:\.[0-9]+)?)$/.exec(text);
  if (scale) return normalizeSeverity(scale[1].includes('.') ? Number(scale[1]) : Number.parseInt(scale[1], 10));
  const word = text.split(/[^a-z]+/).find((part) => severityWords[part]);
  return word ? severityWords[word] : null;
}

/** The more severe of two severities. */
export function worstSeverity(left: Severity | null, right: Severity | null): Severity | null {
  if (!left || !right) return left ?? right;
  return severityLevels[left] >= severityLevels[right] ? left : right;
}
