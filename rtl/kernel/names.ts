/**
 * Hierarchical names and glob patterns.
 *
 * Names are dot-separated paths (`node5.pbu2.cam.row3`). In a glob, `*` matches
 * any run of characters within one path segment, `**` matches across segments
 * (including none), `?` matches one character other than a dot, and
 * `{a,b}` matches either alternative.
 */
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isValidLocalName(name: string): boolean {
  return NAME_RE.test(name);
}

export function globToRegExp(pattern: string): RegExp {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        // `**.` matches zero or more whole segments; a bare `**` anything.
        if (pattern[i + 2] === '.') {
          re += '(?:[^]*\\.)?';
          i += 2;
        } else {
          re += '[^]*';
          i += 1;
        }
      } else {
        re += '[^.]*';
      }
    } else if (c === '?') {
      re += '[^.]';
    } else if (c === '{') {
      const end = pattern.indexOf('}', i);
      if (end < 0) throw new Error(`bad glob '${pattern}': '{' without '}'`);
      const alts = pattern.slice(i + 1, end).split(',').map(escapeRe);
      re += `(?:${alts.join('|')})`;
      i = end;
    } else {
      re += escapeRe(c);
    }
  }
  return new RegExp(re + '$');
}

function escapeRe(s: string): string {
  return s.replace(/[.+^${}()|[\]\\]/g, '\\$&');
}

export function isGlob(pattern: string): boolean {
  return /[*?{]/.test(pattern);
}

/** Edit distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev = new Array<number>(n + 1);
  let cur = new Array<number>(n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[n]!;
}

/** Up to `k` names from `candidates` nearest to `name`. */
export function nearestNames(name: string, candidates: Iterable<string>, k = 3): string[] {
  const scored: [number, string][] = [];
  for (const c of candidates) scored.push([editDistance(name, c), c]);
  scored.sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : 1));
  const limit = Math.max(2, Math.floor(name.length / 2));
  return scored.filter(([d]) => d <= limit).slice(0, k).map(([, c]) => c);
}
