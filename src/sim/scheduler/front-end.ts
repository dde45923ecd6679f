// The engine's API front end on the simulated clock: when each request sent by the client reaches
// the engine's scheduler.
//
// vLLM 0.11's OpenAI server is one Python process (one asyncio event loop; `--api-server-count`
// defaults to 1, vllm#17546; "the API server runs in a single process, utilizing a single CPU",
// vllm#12705) that parses, validates, renders the chat template and tokenizes every request before
// handing it to the engine core. The loop runs its ready handlers in FIFO order, so when many
// requests arrive together each handler's synchronous preprocessing runs before any of them
// resumes to hand its request over: a burst reaches the engine as a burst, once the front end has
// worked through all of it, not one request at a time. The published runs show it: GPUStack's
// vLLM 0.11 runs of 1000 requests sent at once have a mean TTFT of 0.73-0.92 of the benchmark
// duration (Qwen3-14B 1xH100 random 128/4: 18.28 s of 22.72 s) where SGLang and TensorRT-LLM on
// the same pages have 0.53-0.58 (SGLang 4.49 s of 7.80 s), and the Mean TPOT of 525 ms says the
// engine ran large batches; a front end that handed requests over one by one would have let the
// engine run small batches (TPOT ~30 ms). model-lab/DIAGNOSIS.md section 6 has the figures.
//
// Model: one server, one serial worker; a request's cost is efficiency.ts frontEndPerRequestS plus
// frontEndPerPromptTokenS per prompt token. The worker takes everything queued when it starts a
// batch and hands the batch over when it has worked through it; a request that arrives while a
// batch is being worked on waits for the next one. That is one event-loop iteration (CPython's
// Lib/asyncio/base_events.py BaseEventLoop._run_once, 3.10-3.12: it polls I/O once, then runs the
// callbacks that were ready at that point: the continuations the batch's
// handlers scheduled run in the next iteration, ahead of the handlers of requests that arrived
// meanwhile). Sent all at once, the requests form one batch; spread out, batches are what queued
// during the previous one, and with one request each this is the plain serial queue. (An earlier
// version let arrivals extend the batch being worked on, which held spread-out traffic near
// saturation for seconds: p99 2.7 s against 0.2 s at 86% front-end load.)

/** One busy period of the front end: the requests in it and when they reach the engine. */
export interface FrontEndBatch {
  at: number;
  ids: number[];
}

export class BurstFrontEnd {
  /** The batch being worked on, or the one queued behind it (it starts when the one before ends). */
  private current: FrontEndBatch | undefined;
  private currentStart = 0;

  /**
   * A request with preprocessing cost `cost` seconds sent at `now`: the batch it joins (its `at`
   * moves later as more requests join) and whether the batch is new.
   */
  send(id: number, now: number, cost: number): { batch: FrontEndBatch; fresh: boolean } {
    const cur = this.current;
    if (cur && now < cur.at) {
      // Not started yet (queued behind a batch), or started this very instant: the request joins.
      if (now <= this.currentStart) {
        cur.at += cost;
        cur.ids.push(id);
        return { batch: cur, fresh: false };
      }
      // The worker is on this batch: the request starts the next one, when this one ends.
      this.currentStart = cur.at;
      this.current = { at: cur.at + cost, ids: [id] };
      return { batch: this.current, fresh: true };
    }
    this.currentStart = now;
    this.current = { at: now + cost, ids: [id] };
    return { batch: this.current, fresh: true };
  }
}
