// Which TP the engine stage uses: the largest that divides the GPUs and that the attention heads
// split over (model/layout.ts owns the heads rule). Its own file so that the candidates and the
// cross-node layouts both read it without importing each other.
import type { ModelInfo } from '../../model/models.js';
import { headsDivideTp } from '../../model/layout.js';

/** The largest TP size that divides the GPUs and satisfies the attention-head rules. */
export function engineStageTp(model: ModelInfo | undefined, gpus: number): number {
  for (let tp = gpus; tp > 1; tp--) {
    if (gpus % tp !== 0) continue;
    if (!model || !headsDivideTp(model, tp)) return tp;
  }
  return 1;
}
