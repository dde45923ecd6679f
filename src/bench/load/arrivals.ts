// Request arrival schedule: a trace's recorded send times, or vLLM's (serve.py get_request): gamma gaps with shape = burstiness and
// mean 1/rate, cumulatively summed and rescaled so the last arrival lands at exactly N/rate.
import { PyRandom } from '../datasets/rng.js';

/** Delay of each request from the benchmark start, in seconds. */
export function arrivalDelays(n: number, requestRate: number, burstiness = 1, seed = 0): number[] {
  if (n <= 0) return [];
  if (!Number.isFinite(requestRate)) return new Array<number>(n).fill(0);
  const delays: number[] = [];
  if (!Number.isFinite(burstiness)) {
    // vLLM main: burstiness=inf means a constant gap of 1/rate.
    for (let i = 0; i < n; i++) delays.push((i + 1) / requestRate);
    return delays;
  }
  const rng = new PyRandom(seed);
  const theta = 1 / (requestRate * burstiness);
  let t = 0;
  for (let i = 0; i < n; i++) {
    t += rng.gamma(burstiness, theta);
    delays.push(t);
  }
  const target = n / requestRate;
  const last = delays[n - 1]!;
  if (last > 0) for (let i = 0; i < n; i++) delays[i] = (delays[i]! * target) / last;
  return delays;
}

/**
 * The run's schedule: a trace's own send times when every request carries one (its
 * --request-rate and --burstiness are then unused), else vLLM's arrival process.
 */
export function scheduleDelays(requests: readonly { arrivalS?: number }[], requestRate: number, burstiness = 1, seed = 0): number[] {
  if (requests.length > 0 && requests.every((r) => r.arrivalS !== undefined)) return requests.map((r) => r.arrivalS!);
  return arrivalDelays(requests.length, requestRate, burstiness, seed);
}
