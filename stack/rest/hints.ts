/**
 * "Did you mean" suggestions for the hints of PostgREST's errors (PGRST200,
 * PGRST202, PGRST205): PostgREST looks names up in a fuzzy set; tables and
 * functions need a close match (similarity 0.75), parameters and relations
 * a loose one (0.33).
 */

/** Closest name by edit distance (similarity ≥ threshold) for "Perhaps you meant" hints. */
export function closest(name: string, candidates: Iterable<string>, threshold = 0.75): string | null {
  let best: string | null = null;
  let bestScore = 0;
  for (const c of candidates) {
    const score = similarity(name, c);
    if (score > bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return bestScore >= threshold ? best : null;
}

function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const d = levenshtein(a.toLowerCase(), b.toLowerCase());
  return 1 - d / Math.max(a.length, b.length, 1);
}

function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

/** Closest name by shared trigrams (PostgREST's relationship hints); null below 0.33. */
export function closestByTrigrams(name: string, candidates: string[]): string | null {
  let best: string | null = null;
  let score = 0;
  for (const c of new Set(candidates)) {
    const s = trigramSimilarity(name, c);
    if (s > score) {
      score = s;
      best = c;
    }
  }
  return score >= 0.33 ? best : null;
}

function trigramSimilarity(a: string, b: string): number {
  const grams = (s: string) => {
    const p = `  ${s.toLowerCase()} `;
    const out = new Set<string>();
    for (let i = 0; i < p.length - 2; i++) out.add(p.slice(i, i + 3));
    return out;
  };
  const ga = grams(a);
  const gb = grams(b);
  let common = 0;
  for (const g of ga) if (gb.has(g)) common++;
  return common / (ga.size + gb.size - common);
}
