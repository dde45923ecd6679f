// The rolling view emitted about once a second while a benchmark runs.
import { mean, percentile } from '../../core/stats.js';
import type { LiveSnapshot } from '../../core/metrics.js';
import type { RequestOutput } from '../types.js';

const WINDOW_S = 1;

export class LiveTracker {
  private tokenTimes: number[] = [];
  private promptTokens: { t: number; n: number }[] = [];
  readonly ttfts: number[] = [];
  readonly tpots: number[] = [];
  private itls: number[] = [];
  completed = 0;
  failed = 0;
  private promptDone = 0;
  private cachedDone = 0;
  private cacheReported = false;
  running = 0;

  constructor(readonly total: number) {}

  token(t: number): void {
    this.tokenTimes.push(t);
  }
  firstToken(t: number, ttft: number, promptLen: number): void {
    this.tokenTimes.push(t);
    this.ttfts.push(ttft);
    this.promptTokens.push({ t, n: promptLen });
  }
  itl(gap: number): void {
    // Bounded: the p99 of the most recent 50k gaps is plenty for a live panel.
    if (this.itls.length >= 50_000) this.itls.splice(0, 10_000);
    this.itls.push(gap);
  }
  finished(o: Pick<RequestOutput, 'ttft' | 'latency' | 'outputLen' | 'promptLen' | 'cachedTokens'>): void {
    this.completed++;
    if (o.outputLen > 1) this.tpots.push((o.latency - o.ttft) / (o.outputLen - 1));
    // As the run's cache figures count it (metrics/cache.ts): once any response reported its cache, a silent one is a miss.
    this.promptDone += o.promptLen;
    this.cachedDone += o.cachedTokens ?? 0;
    if (o.cachedTokens !== undefined) this.cacheReported = true;
  }

  snapshot(now: number, elapsedS: number, clientBound: boolean): LiveSnapshot {
    const from = now - WINDOW_S;
    this.tokenTimes = this.tokenTimes.filter((t) => t > from);
    this.promptTokens = this.promptTokens.filter((p) => p.t > from);
    const outTok = this.tokenTimes.length / WINDOW_S;
    const inTok = this.promptTokens.reduce((a, p) => a + p.n, 0) / WINDOW_S;
    return {
      elapsedS,
      total: this.total,
      completed: this.completed,
      failed: this.failed,
      running: this.running,
      outputTokPerS: outTok,
      totalTokPerS: outTok + inTok,
      meanTtftMs: mean(this.ttfts) * 1000,
      p99TtftMs: percentile(this.ttfts, 99) * 1000,
      meanTpotMs: mean(this.tpots) * 1000,
      p99TpotMs: percentile(this.tpots, 99) * 1000,
      meanItlMs: mean(this.itls) * 1000,
      p99ItlMs: percentile(this.itls, 99) * 1000,
      clientBound,
      ...(this.cacheReported && this.promptDone > 0 ? { cacheHitRate: this.cachedDone / this.promptDone } : {}),
    };
  }
}
