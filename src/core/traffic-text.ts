// A result's figures that only some traffic has, in words: the prefix cache's measured hit rate
// against the reuse the workload made possible, and a multi-turn run's mean TTFT by turn. One
// owner for the headless lines, the Results screen and the report.

/** What some traffic adds to a result (VariantResult carries these). */
export interface TrafficFigures {
  /** On traffic that resends prefixes: the prefix cache's measured hit rate (null: no response reported it) and the reuse the workload made possible, 0..1 (bench/metrics/cache.ts). */
  cache?: {
    hitRate: number | null;
    possibleReuse: number;
    /** The server's cache held some of the prompts before the run: the hit rate is above this workload's own reuse (bench/metrics/cache-warm.ts). */
    warmBeforeRun?: boolean;
  };
  /** A multi-turn run: mean TTFT of each turn, turn 1 first, ms (bench/multiturn/turn-metrics.ts). */
  turnTtftMs?: number[];
  /** A multi-turn run: conversations that ran every turn, per second (bench/multiturn/turn-metrics.ts). */
  conversationsPerS?: number;
}

/** Turns listed before the rest are summed up as "... turn N". */
const TURNS_SHOWN = 6;

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** "prefix cache hit 78% of 80% possible", "... (cache warm before the run)"; null when the run had no cache figures. */
export function cacheText(r: Pick<TrafficFigures, 'cache'>): string | null {
  if (!r.cache) return null;
  const possible = `${pct(r.cache.possibleReuse)} possible`;
  return r.cache.hitRate === null
    ? `prefix cache: not reported by the server (${possible})`
    : `prefix cache hit ${pct(r.cache.hitRate)} of ${possible}${r.cache.warmBeforeRun ? ' (cache warm before the run)' : ''}`;
}

/** "TTFT by turn 850, 140, 152 ms"; null for a single-turn run. */
export function turnText(r: Pick<TrafficFigures, 'turnTtftMs' | 'conversationsPerS'>): string | null {
  const t = r.turnTtftMs;
  if (!t?.length) return null;
  const shown = t.slice(0, TURNS_SHOWN).map((ms) => Math.round(ms).toLocaleString('en-US'));
  const rest = t.length > TURNS_SHOWN ? `, ... turn ${t.length}: ${Math.round(t.at(-1)!).toLocaleString('en-US')}` : '';
  const convs = r.conversationsPerS !== undefined ? `; ${conversationRate(r.conversationsPerS)} conversations/s` : '';
  return `TTFT by turn ${shown.join(', ')}${rest} ms${convs}`;
}

/** Two significant figures at most, so a slow rate does not read 0. */
function conversationRate(x: number): string {
  return x >= 10 ? String(Math.round(x)) : String(Number(x.toPrecision(2)));
}

/** Both, joined; null when the run had neither. */
export function trafficText(r: TrafficFigures): string | null {
  const parts = [cacheText(r), turnText(r)].filter((x): x is string => x !== null);
  return parts.length ? parts.join('; ') : null;
}
