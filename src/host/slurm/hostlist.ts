// Slurm's compressed host lists ("gpu[01-03,07],login1") as plain node names. Pure, so the head
// node of an allocation is known without another scontrol call (`scontrol show hostnames` does
// the same expansion on the cluster side).

/** Split at commas that are not inside brackets. */
function topLevelParts(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(list.slice(start));
  return parts.filter((p) => p.length > 0);
}

/** "01-03" -> ["01","02","03"], keeping the zero padding of the lower bound. */
function expandRange(range: string): string[] {
  const m = /^(\d+)(?:-(\d+))?$/.exec(range);
  if (!m) throw new Error(`bad Slurm host range '${range}'`);
  const lo = m[1]!;
  if (m[2] === undefined) return [lo];
  const out: string[] = [];
  for (let n = Number(lo); n <= Number(m[2]); n++) out.push(String(n).padStart(lo.length, '0'));
  return out;
}

function expandOne(part: string): string[] {
  const open = part.indexOf('[');
  if (open < 0) return [part];
  const close = part.indexOf(']', open);
  if (close < 0) throw new Error(`bad Slurm host list '${part}'`);
  const prefix = part.slice(0, open);
  const rests = expandOne(part.slice(close + 1));
  const out: string[] = [];
  for (const r of part.slice(open + 1, close).split(',')) {
    for (const n of expandRange(r)) for (const rest of rests) out.push(prefix + n + rest);
  }
  return out;
}

/** Node names of a Slurm host list; `(null)` or '' (a pending job) gives []. */
export function expandHostlist(list: string): string[] {
  const s = list.trim();
  if (s === '' || s === '(null)' || s === 'None assigned') return [];
  return topLevelParts(s).flatMap(expandOne);
}
