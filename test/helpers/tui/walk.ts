// The defaults-and-Enter walk a user takes from the Host screen to the Run screen.
import type { Rendered } from '../render.js';

export async function enterRun(r: Rendered): Promise<void> {
  await r.waitForFrame('no NVIDIA GPU found');
  await r.press('enter');
  await r.waitForFrame('2/6 Model');
  await r.press('enter');
  await r.waitForFrame('3/6 Plan');
  await r.press('enter');
  await r.waitForFrame('4/6 Run');
}
