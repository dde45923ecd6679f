// Which running variant the skip key stops when several run at once (variants of a stage on
// disjoint GPUs): the row the user picked with up/down, else the top one. A variant that is
// stopping already cannot be picked. Pure: the Run screen draws the pick, the hook sends its id
// to the core (SessionControl.skipVariant(variantId)).
import type { CurrentVariant } from './live.js';

/** The rows a skip can still stop, in the order the screen lists them. */
export function pickable(live: readonly CurrentVariant[]): CurrentVariant[] {
  return live.filter((c) => c.phase !== 'stopping');
}

/** The variant the skip key stops now: the picked row while it runs, else the top row; null when none runs. */
export function skipTarget(live: readonly CurrentVariant[], picked: string | null): string | null {
  const rows = pickable(live);
  return (rows.find((c) => c.variantId === picked) ?? rows[0])?.variantId ?? null;
}

/** The pick one row up (-1) or down (+1) from the current target, wrapping around. */
export function movePick(live: readonly CurrentVariant[], picked: string | null, dir: 1 | -1): string | null {
  const rows = pickable(live);
  if (!rows.length) return null;
  const at = rows.findIndex((c) => c.variantId === skipTarget(live, picked));
  return rows[(at + dir + rows.length) % rows.length]!.variantId;
}
