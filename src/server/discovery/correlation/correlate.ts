/** One source's record of an asset: `key` is stable across discoveries (`<connection id>:<vendor id>`). */
export type SourceRecord = { key: string; adapter: string; connectionId: number; fields: Record<string, unknown> };

export type MergeReason = { rule: string; value: string; records: [string, string] };
export type Cluster = { records: string[]; reasons: MergeReason[] };

/** A strong identifier: records sharing one of its keys are the same asset unless a veto says otherwise. */
export type MergeRule = {
  name: string;
  keysOf: (record: SourceRecord) => string[];
  /** Vetoes that apply to this rule on top of the always-on ones (e.g. one agent per adapter for host names). */
  extraVetoes?: string[];
};

/** An attribute two assets cannot both have with different values: two serial numbers mean two machines. */
export type Veto = { name: string; valuesOf: (record: SourceRecord) => string[] };

export type CorrelationRules = {
  rules: MergeRule[];
  vetoes: Veto[];
  conditionalVetoes?: Veto[];
  /** Evidence that a record describes a machine in use now (it was seen recently): settles contested keys. */
  isCurrent?: (record: SourceRecord) => boolean;
};
export type ManualDecisions = { merges?: [string, string][]; splits?: [string, string][] };

// A key shared by more records than this identifies nothing (a default host name, a lab MAC): it is skipped.
const largestIdentifierGroup = 50;

// What a group of two or more records has merged so far. A lone record keeps none (its attributes are read from
// it when compared), so correlation's memory follows the merges rather than every record.
type MergedGroup = { size: number; reasons: MergeReason[]; attributes: Map<string, Set<string>>; current: boolean };

function conflicts(left: Map<string, Set<string>>, right: Map<string, Set<string>>, vetoNames: string[]): string | null {
  for (const name of vetoNames) {
    const ours = left.get(name);
    const theirs = right.get(name);
    if (ours?.size && theirs?.size && ![...ours].some((value) => theirs.has(value))) return name;
  }
  return null;
}

/**
 * Groups source records into assets. Manual merges come first (they override vetoes); then each rule in order
 * unites records sharing a key, unless the two groups contradict each other on a veto attribute or a manual split
 * separates them. Every union records its reason.
 */
export function correlate(records: SourceRecord[], { rules, vetoes, conditionalVetoes = [], isCurrent = () => false }: CorrelationRules, manual: ManualDecisions = {}): Cluster[] {
  const index = new Map(records.map((record, position) => [record.key, position]));
  const parent = records.map((_, position) => position);
  const allVetoes = [...vetoes, ...conditionalVetoes];
  const merged = new Map<number, MergedGroup>();
  const attributesOf = (root: number) => merged.get(root)?.attributes ?? new Map(allVetoes.map((veto) => [veto.name, new Set(veto.valuesOf(records[root]))]));
  const isCurrentGroup = (root: number) => merged.get(root)?.current ?? isCurrent(records[root]);
  const groupOf = (root: number): MergedGroup => {
    let group = merged.get(root);
    if (!group) merged.set(root, (group = { size: 1, reasons: [], attributes: attributesOf(root), current: isCurrent(records[root]) }));
    return group;
  };
  const find = (position: number): number => {
    while (parent[position] !== position) {
      parent[position] = parent[parent[position]];
      position = parent[position];
    }
    return position;
  };
  const splits = (manual.splits ?? []).flatMap(([left, right]) => {
    const pair = [index.get(left), index.get(right)];
    return pair.every((position) => position !== undefined) ? [pair as [number, number]] : [];
  });
  const separatedByManualSplit = (left: number, right: number) =>
    splits.some(([first, second]) => (find(first) === left && find(second) === right) || (find(first) === right && find(second) === left));

  const unite = (leftPosition: number, rightPosition: number, reason: Omit<MergeReason, 'records'>, vetoNames: string[] | null): boolean => {
    const left = find(leftPosition);
    const right = find(rightPosition);
    if (left === right) return false;
    if (vetoNames && (conflicts(attributesOf(left), attributesOf(right), vetoNames) || separatedByManualSplit(left, right))) return false;
    const sizeOf = (root: number) => merged.get(root)?.size ?? 1;
    const [keep, absorb] = sizeOf(left) >= sizeOf(right) ? [left, right] : [right, left];
    parent[absorb] = keep;
    const kept = groupOf(keep);
    const absorbed = merged.get(absorb);
    kept.size += absorbed?.size ?? 1;
    if (absorbed) kept.reasons.push(...absorbed.reasons);
    kept.reasons.push({ ...reason, records: [records[leftPosition].key, records[rightPosition].key] });
    for (const [name, values] of attributesOf(absorb)) for (const value of values) kept.attributes.get(name)?.add(value);
    kept.current ||= isCurrentGroup(absorb);
    merged.delete(absorb);
    return true;
  };

  /**
   * A key shared by assets that contradict each other (a host name on two machines with different serials) is
   * contested: a member without the contradicting attribute could belong to either. It joins the one contender
   * in current use (a retired machine's stale record is not); with no single such contender it joins none.
   */
  const uniteContested = (members: number[], vetoNames: string[], reason: Omit<MergeReason, 'records'>): boolean => {
    const roots = [...new Set(members.map(find))];
    const contenders = roots.filter((root) => roots.some((other) => other !== root && conflicts(attributesOf(root), attributesOf(other), vetoNames) !== null));
    if (!contenders.length) return false;
    const current = contenders.filter(isCurrentGroup);
    if (current.length === 1) for (const root of roots.filter((candidate) => !contenders.includes(candidate))) unite(current[0], root, reason, vetoNames);
    return true;
  };

  for (const [left, right] of manual.merges ?? []) {
    const pair = [index.get(left), index.get(right)];
    if (pair[0] !== undefined && pair[1] !== undefined) unite(pair[0], pair[1], { rule: 'manual', value: 'merged by an analyst' }, null);
  }
  const alwaysOn = vetoes.map((veto) => veto.name);
  for (const rule of rules) {
    const groups = new Map<string, number[]>();
    records.forEach((record, position) => {
      for (const key of new Set(rule.keysOf(record))) {
        const group = groups.get(key);
        if (group) group.push(position);
        else groups.set(key, [position]);
      }
    });
    const vetoNames = [...alwaysOn, ...(rule.extraVetoes ?? [])];
    for (const [key, members] of groups) {
      if (members.length < 2 || members.length > largestIdentifierGroup || uniteContested(members, vetoNames, { rule: rule.name, value: key })) continue;
      // Every pair, not only pairs with the first member: one vetoed against the first may belong with another.
      for (let first = 0; first < members.length; first += 1) for (const member of members.slice(first + 1)) unite(members[first], member, { rule: rule.name, value: key }, vetoNames);
    }
  }

  const clusters = new Map<number, Cluster>();
  records.forEach((record, position) => {
    const root = find(position);
    const cluster = clusters.get(root) ?? { records: [], reasons: merged.get(root)?.reasons ?? [] };
    cluster.records.push(record.key);
    clusters.set(root, cluster);
  });
  return [...clusters.values()];
}
