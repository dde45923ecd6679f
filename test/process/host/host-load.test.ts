// Other processes' CPU share, read from the real /proc while a real process burns a core: counted
// as other work when it is not the run's own, and not counted when it is.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hostTicks, othersCpuPct, withDescendants } from '../../../src/host/host-load.js';

const linux = process.platform === 'linux';

describe.skipIf(!linux)(`other work on this host, from /proc${linux ? '' : ' (skipped: no /proc off Linux)'}`, () => {
  it("a busy process counts as other work unless it is the run's own", async () => {
    const burner = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 300));
      // The burner as the run's own process (via its parent: descendants of this test's pid).
      const own = withDescendants([process.pid]);
      expect(own).toContain(burner.pid);
      const a = hostTicks(own)!;
      await new Promise((r) => setTimeout(r, 1500));
      const b = hostTicks(own)!;
      const withoutOwn = othersCpuPct({ ...a, own: 0 }, { ...b, own: 0 });
      const withOwn = othersCpuPct(a, b);
      // The burner's ticks are the difference: a share of the host it took, whatever else runs here.
      const burnerShare = ((b.own - a.own) / (b.total - a.total)) * 100;
      expect(burnerShare).toBeGreaterThan(5);
      expect(withoutOwn - withOwn).toBeCloseTo(Math.min(burnerShare, withoutOwn), 0);
    } finally {
      burner.kill('SIGKILL');
    }
  });
});
