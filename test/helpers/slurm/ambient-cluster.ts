// The test cluster as a describe block uses it (scripts/slurm-test-cluster.ts uses cluster.ts without vitest).
import { afterAll, beforeAll } from 'vitest';
import { startTestCluster, type TestCluster } from './cluster.js';

/**
 * A test cluster for one describe block, with SLURM_CONF pointed at it while the block runs (the
 * runtime uses the ambient Slurm config, as on a login node) and restored after. `h.c` is the
 * cluster once beforeAll has run.
 */
export function ambientTestCluster(): { c: TestCluster } {
  const h = {} as { c: TestCluster };
  const saved = process.env.SLURM_CONF;
  beforeAll(async () => {
    h.c = await startTestCluster();
    process.env.SLURM_CONF = h.c.cli.env!.SLURM_CONF;
  }, 60_000);
  afterAll(async () => {
    if (saved === undefined) delete process.env.SLURM_CONF;
    else process.env.SLURM_CONF = saved;
    await h.c?.stop();
  }, 30_000);
  return h;
}
