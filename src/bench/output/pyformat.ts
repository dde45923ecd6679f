// Python str.format pieces used by vLLM's result block.

/** Python `format(x, '.2f')`: like toFixed(2) except exact binary ties round half to even. */
export function pyFixed2(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  // A double is exactly halfway between two cents only if x*8 is an odd integer (x = j/8).
  const e = x * 8;
  if (Number.isInteger(e) && Math.abs(e) % 2 === 1 && Math.abs(e) < 2 ** 52) {
    const down = Math.trunc(x * 100) / 100; // toward zero
    const cents = Math.trunc(x * 100);
    const even = cents % 2 === 0 ? cents : cents + Math.sign(x);
    return (even === cents ? down : even / 100).toFixed(2);
  }
  return x.toFixed(2);
}

/** Python `'{s:{c}^{n}}'.format(...)`: centred, the extra fill on the right. */
export function pyCenter(s: string, n: number, c: string): string {
  if (s.length >= n) return s;
  const left = Math.floor((n - s.length) / 2);
  return c.repeat(left) + s + c.repeat(n - s.length - left);
}

/** Python `str(float)` for the values vLLM puts in file names (inf, 10.0, 2.5). */
export function pyFloatStr(x: number): string {
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return Number.isInteger(x) ? `${x}.0` : String(x);
}
