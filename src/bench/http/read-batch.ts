// Stamps every read of one event-loop turn before any of them is parsed. A server emits one token
// for every running stream at each decode step, so the client's reads come in bursts; parsing
// each read before taking the next one's stamp would charge the k-th stream of a burst with the
// parsing of the k-1 before it. The poll phase takes each read's stamp and a copy of its bytes
// (the plain-TCP read buffer is reused); one setImmediate, which runs right after that phase,
// hands them to their owners in arrival order.
import { performance } from 'node:perf_hooks';

export interface ReadTarget {
  deliver(bytes: Buffer, ts: number): void;
}

export class ReadBatch {
  private targets: ReadTarget[] = [];
  private bytes: Buffer[] = [];
  private stamps: number[] = [];
  private scheduled = false;

  /** Queues one read; its stamp (seconds, performance.now()/1000 as the client's nowS) is taken now. */
  add(target: ReadTarget, bytes: Buffer): void {
    this.stamps.push(performance.now() / 1000);
    this.bytes.push(Buffer.from(bytes));
    this.targets.push(target);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  /** True while reads wait for delivery. */
  get pending(): boolean {
    return this.targets.length > 0;
  }

  /** Delivers every queued read in order (also called before a connection's end is handled). */
  readonly flush = (): void => {
    this.scheduled = false;
    const { targets, bytes, stamps } = this;
    if (targets.length === 0) return;
    this.targets = [];
    this.bytes = [];
    this.stamps = [];
    for (let i = 0; i < targets.length; i++) targets[i]!.deliver(bytes[i]!, stamps[i]!);
  };
}
