// Formatting only: numbers in, short strings out. Nothing here measures or derives a metric.

export function fmtNum(n: number | null | undefined, digits = 0): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '-';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Throughput: 12,345 tok/s; large values stay integral, small ones keep one decimal. */
export function fmtTokS(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '-';
  return fmtNum(n, n < 100 ? 1 : 0);
}

export function fmtMs(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '-';
  if (n >= 10_000) return `${fmtNum(n / 1000, 1)}s`;
  return `${fmtNum(n, n < 10 ? 2 : n < 100 ? 1 : 0)}ms`;
}

export function fmtPct(n: number | null | undefined, signed = false): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '-';
  const s = `${n.toFixed(1)}%`;
  return signed && n > 0 ? `+${s}` : s;
}

export function fmtBytes(b: number | null | undefined): string {
  if (b === null || b === undefined || !Number.isFinite(b)) return '-';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = b;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(v < 100 && i > 0 ? 1 : 0)} ${units[i]}`;
}

export function fmtMiB(mib: number): string {
  return mib >= 1024 ? `${(mib / 1024).toFixed(mib >= 10240 ? 0 : 1)} GiB` : `${Math.round(mib)} MiB`;
}

export function fmtParams(billions: number | null | undefined): string {
  if (billions === null || billions === undefined || !Number.isFinite(billions)) return '-';
  return billions >= 1 ? `${billions.toFixed(billions < 100 ? 1 : 0)}B` : `${Math.round(billions * 1000)}M`;
}

export function fmtDollars(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '-';
  return `$${n < 1 ? n.toFixed(3) : n.toFixed(2)}`;
}

/** Cut a string to `width` columns with an ellipsis (one column per code point is close enough here). */
export function truncate(s: string, width: number): string {
  if (width <= 0) return '';
  const chars = [...s];
  if (chars.length <= width) return s;
  if (width === 1) return '…';
  return chars.slice(0, width - 1).join('') + '…';
}

/** A sparkline of the last `width` values, scaled between 0 and the window's max. */
export function sparkline(values: readonly number[], width: number, ticks: readonly string[]): string {
  const tail = values.slice(-Math.max(0, width)).filter((v) => Number.isFinite(v));
  if (tail.length === 0) return '';
  const max = Math.max(...tail);
  if (max <= 0) return ticks[0]!.repeat(tail.length);
  return tail.map((v) => ticks[Math.min(ticks.length - 1, Math.floor((Math.max(0, v) / max) * (ticks.length - 1)))]).join('');
}

/**
 * Wrap `text` into lines of at most `width` columns, breaking at spaces where it can (a word longer
 * than the width is cut), at most `max` lines (the last ends in … when text was left out).
 */
export function wrapLines(text: string, width: number, max: number): string[] {
  const w = Math.max(1, width);
  const lines: string[] = [];
  let rest = [...text];
  while (rest.length && lines.length < max) {
    if (rest.length <= w) {
      lines.push(rest.join(''));
      rest = [];
      break;
    }
    let cut = rest.lastIndexOf(' ', w);
    if (cut <= 0) cut = w;
    lines.push(rest.slice(0, cut).join('').trimEnd());
    rest = rest.slice(cut);
    while (rest[0] === ' ') rest = rest.slice(1);
  }
  if (rest.length && lines.length) lines[lines.length - 1] = truncate(lines[lines.length - 1]! + ' …', w);
  return lines;
}

/**
 * A stage candidate's label relative to the winner carried into the stage, so rows of a stage
 * read as their change and stay apart in a narrow column. Knobs added: "sglang fp8 attn=triton"
 * after "sglang fp8" reads "+ attn=triton" (the carried words may sit anywhere). Knobs changed on
 * the same engine: "vllm fp8 tp4 dp2" after "vllm fp8 tp8" reads "tp4 dp2 (was tp8)". Anything
 * else (another engine) is returned whole.
 */
export function relativeLabel(label: string, carried: string | undefined): string {
  if (!carried || label === carried) return label;
  const words = label.split(' ');
  const base = carried.split(' ');
  const added = [...words];
  const removed: string[] = [];
  for (const w of base) {
    const i = added.indexOf(w);
    if (i < 0) removed.push(w);
    else added.splice(i, 1);
  }
  if (added.length === 0) return label;
  if (removed.length === 0) return `+ ${added.join(' ')}`;
  // From the engine's defaults, or to another engine, the whole label reads best.
  if (words[0] !== base[0] || removed.includes(base[0]!) || removed.every((w) => w === 'defaults')) return label;
  return `${added.join(' ')} (was ${removed.join(' ')})`;
}

/** Split a shell command line into words, keeping single- and double-quoted parts whole. */
export function shellWords(cmd: string): string[] {
  const words: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (const ch of cmd) {
    if (quote) {
      cur += ch;
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') {
      cur += ch;
      quote = ch;
    } else if (ch === ' ') {
      if (cur) words.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) words.push(cur);
  return words;
}

/**
 * A command laid out to be copied whole: words are never cut or left out. A flag stays on the
 * line of its value; a line that goes on ends in ` \` and the next is indented, so a copy of all
 * the lines pastes as one command. Only a single word wider than the terminal is broken.
 */
export function commandLines(cmd: string, width: number, prefix = '$ '): string[] {
  const w = Math.max(8, width);
  const words = shellWords(cmd);
  const groups: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    // A flag and its value share a line, unless together they would not fit on one.
    if (
      word.startsWith('-') &&
      !word.includes('=') &&
      next !== undefined &&
      !next.startsWith('-') &&
      [...word].length + [...next].length + 7 <= w
    ) {
      groups.push(`${word} ${next}`);
      i++;
    } else groups.push(word);
  }
  const indent = '    ';
  const lines: string[] = [];
  let line = prefix;
  for (const g of groups) {
    if (line === prefix || line === indent) line += g;
    else if ([...line].length + 1 + [...g].length + 2 <= w) line += ` ${g}`;
    else {
      lines.push(`${line} \\`);
      line = indent + g;
    }
  }
  lines.push(line);
  // A word wider than the terminal cannot be kept on one line: break it where it must, after a
  // '/' or ',' when there is one in the second half of the line, so a path breaks between folders
  // and quoted JSON between members (a newline there is still the same JSON when pasted).
  return lines.flatMap((l) => {
    const out: string[] = [];
    let rest = [...l];
    while (rest.length > w) {
      const at = Math.max(rest.lastIndexOf('/', w - 1), rest.lastIndexOf(',', w - 1));
      const cut = at >= w / 2 ? at + 1 : w;
      out.push(rest.slice(0, cut).join(''));
      rest = rest.slice(cut);
    }
    out.push(rest.join(''));
    return out;
  });
}
