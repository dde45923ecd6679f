// The length distributions of vLLM's generate_conversations config
// (benchmarks/multi_turn/bench_dataset.py, get_random_distribution, vllm-project/vllm@0fdcab7e):
// constant, uniform, lognormal (by average and median ratio, or by mean and sigma), zipf and
// poisson, each with an optional max. Drawn from servelab's own seeded generator, so the same
// config gives the same shape as vLLM's numpy draws, not the same numbers.
import { UserError } from '../../core/errors.js';
import type { PyRandom } from '../datasets/rng.js';

export type Distribution = (rng: PyRandom, n: number) => number[];

type Conf = Record<string, unknown>;

function num(conf: Conf, key: string, where: string): number {
  const v = conf[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new UserError(`${where}: '${key}' must be a number`);
  return v;
}

const capped = (max: number | undefined) => (x: number) => (max !== undefined ? Math.min(x, max) : x);

function lognormal(conf: Conf, where: string, max: number | undefined): Distribution {
  let mu: number;
  let sigma: number;
  const average = conf.average === undefined ? undefined : num(conf, 'average', where);
  if (average !== undefined) {
    // vLLM: median = average * median_ratio (default 0.85), sigma^2 = 2 ln(mean / median).
    const ratio = conf.median_ratio === undefined ? 0.85 : num(conf, 'median_ratio', where);
    if (!(average >= 1) || !(ratio > 0 && ratio < 1))
      throw new UserError(`${where}: lognormal needs average >= 1 and 0 < median_ratio < 1`);
    mu = Math.log(average * ratio);
    sigma = Math.sqrt(2 * Math.log(1 / ratio));
  } else {
    mu = num(conf, 'mean', where);
    sigma = num(conf, 'sigma', where);
  }
  return (rng, n) => {
    let xs = Array.from({ length: n }, () => Math.exp(mu + sigma * rng.normal()));
    // vLLM rescales each batch of draws to the asked average, then caps and rounds.
    if (average !== undefined) {
      const m = xs.reduce((a, b) => a + b, 0) / Math.max(1, n);
      xs = xs.map((x) => (x * average) / m);
    }
    return xs.map(capped(max)).map((x) => Math.round(x));
  };
}

/** numpy's zipf rejection sampler (Devroye), on our generator. */
function zipf(rng: PyRandom, a: number): number {
  const am1 = a - 1;
  const b = Math.pow(2, am1);
  for (;;) {
    const u = 1 - rng.random();
    const v = rng.random();
    const x = Math.floor(Math.pow(u, -1 / am1));
    if (x < 1 || !Number.isFinite(x)) continue;
    const t = Math.pow(1 + 1 / x, am1);
    if ((v * x * (t - 1)) / (b - 1) <= t / b) return x;
  }
}

function poisson(rng: PyRandom, lam: number): number {
  if (lam > 60) return Math.max(0, Math.round(lam + Math.sqrt(lam) * rng.normal()));
  const limit = Math.exp(-lam);
  let k = 0;
  for (let p = rng.random(); p > limit; p *= rng.random()) k++;
  return k;
}

/** One distribution of the config (`where` names it in errors, e.g. "prompt_input.num_tokens"). */
export function parseDistribution(conf: unknown, where: string): Distribution {
  if (!conf || typeof conf !== 'object') throw new UserError(`${where}: expected an object with a 'distribution'`);
  const c = conf as Conf;
  const max = c.max === undefined ? undefined : num(c, 'max', where);
  switch (c.distribution) {
    case 'constant': {
      const v = num(c, 'value', where);
      return (_rng, n) => Array.from({ length: n }, () => v);
    }
    case 'uniform': {
      const lo = num(c, 'min', where);
      const hi = num(c, 'max', where);
      if (!(lo > 0 && lo <= hi)) throw new UserError(`${where}: uniform needs 0 < min <= max`);
      const ints = Number.isInteger(lo) && Number.isInteger(hi);
      return (rng, n) => Array.from({ length: n }, () => (ints ? rng.intBetween(lo, hi) : lo + rng.random() * (hi - lo)));
    }
    case 'lognormal':
      return lognormal(c, where, max);
    case 'zipf': {
      const a = num(c, 'alpha', where);
      if (!(a > 1)) throw new UserError(`${where}: zipf needs alpha > 1`);
      return (rng, n) => Array.from({ length: n }, () => capped(max)(zipf(rng, a)));
    }
    case 'poisson': {
      const a = num(c, 'alpha', where);
      return (rng, n) => Array.from({ length: n }, () => capped(max)(poisson(rng, a)));
    }
    default:
      throw new UserError(
        `${where}: unknown distribution ${JSON.stringify(c.distribution)} (constant, uniform, lognormal, zipf or poisson)`,
      );
  }
}
