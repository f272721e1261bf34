/**
 * The known key closest to a misspelt one: same letters ignoring case, or within an edit
 * distance of 2 (1 for keys of up to 4 letters). Undefined when nothing is close.
 */
export function suggestKey(key: string, knownKeys: Iterable<string>): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = key.length <= 4 ? 1 : 2;
  for (const candidate of knownKeys) {
    if (candidate === key) continue;
    if (candidate.toLowerCase() === lower) return candidate;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= bestDistance) {
      best = candidate;
      bestDistance = distance - 1;
    }
  }
  return best;
}

/**
 * The `count` candidates closest to `name` by edit distance (case-insensitive), closest first;
 * for "did you mean" lists in messages.
 */
export function closeNames(name: string, candidates: Iterable<string>, count = 5): string[] {
  const target = name.toUpperCase();
  return [...new Set(candidates)]
    .map((candidate) => ({ candidate, distance: editDistance(target, candidate.toUpperCase()) }))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map(({ candidate }) => candidate);
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length];
}
