// The TRAINING SET, declared once: what model-lab/fit.ts fits the constants of src/model/fitted.ts on.
// - the three studies (src/model/data/studies.ts), every variant with a published figure;
// - the published rows of the Qwen3-14B pages (src/model/data/published.ts TRAINING_PAGES: A100 and H100, all
//   three engines, ShareGPT and the random shapes).
// Everything else in published.ts (the Qwen3-32B pages) is HELD OUT: compared by model-lab/validate.ts
// and test/unit/model/validation.test.ts, never fitted on. The split is by model (14B trains, 32B is
// held out) so the held-out error measures a model size the fit never saw, on both GPUs.
import { PUBLISHED } from '../src/model/data/published.js';
import type { PublishedResult } from '../src/model/data/published-result.js';
import { STUDY_VARIANTS, type StudyVariant } from '../src/model/data/studies.js';

/** Study variants with a published throughput (the ones that ran). */
export const TRAINING_STUDIES: StudyVariant[] = STUDY_VARIANTS.filter((v) => v.published !== null);

export const TRAINING_PUBLISHED: PublishedResult[] = PUBLISHED.filter((r) => r.split === 'train');
