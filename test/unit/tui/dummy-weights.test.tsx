// The Plan screen's dummy-weights key on the real planner and config builder: the key flips the
// choice, each stage's line says which launches would load dummy weights (and each engine's
// spelling) and why the others keep the real ones, and the session the Run screen starts gets the config --dummy-weights gives. No
// process is started: the session runner is one that records the config it is given.
import React from 'react';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/screens/app.js';
import { openSettings } from '../../../src/core/settings.js';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import type { SessionConfig } from '../../../src/tune/config/config.js';
import { realServices } from '../../../src/tui/services/workbench.js';
import { parseTuiFlags } from '../../../src/cli/auto-args.js';
import { colourTheme } from '../../../src/tui/base/theme.js';
import { render, type Rendered } from '../../helpers/render.js';

let dir: string;
let r: Rendered | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'servelab-dummy-'));
});

afterEach(() => {
  r?.unmount();
  r = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const flags = () => [
  '--sim',
  '--gpu',
  'H100',
  '--gpus',
  '1',
  '--model',
  'Qwen/Qwen3-14B',
  '--stages',
  'engine,speculative',
  '--num-prompts',
  '12',
  '--validation',
  'none',
  '--out',
  dir,
  '--runs-dir',
  join(dir, 'runs'),
];

/** The workbench on the real services, walked to the Plan screen. */
async function toPlan(extra: string[] = []) {
  const configs: SessionConfig[] = [];
  const { services, defaults } = realServices({
    flags: parseTuiFlags([...flags(), ...extra]),
    settings: openSettings(join(dir, 'conf')),
    run: async (config) => configs.push(config),
  });
  r = render(<App services={services} defaults={defaults} onExit={() => {}} theme={colourTheme} />, { columns: 120, rows: 40 });
  await r.waitForFrame('simulated host (--sim)', 20_000);
  await r.press('enter');
  await r.waitForFrame('Qwen3ForCausalLM');
  await r.press('enter');
  await r.waitForFrame(/engine on defaults: 3 candidates/, 20_000);
  return { r, configs };
}

const engineRow = (f: string) => f.split('\n').find((l) => /^\W*engine\b/.test(l)) ?? '';
const specRow = (f: string) => f.split('\n').find((l) => /^\W*speculative\b/.test(l)) ?? '';

describe('dummy weights on the Plan screen', () => {
  it('d flips them: the stage lines say where and why not, and the launched session config carries them', async () => {
    const { r, configs } = await toPlan();
    let f = r.frame();
    expect(f).toContain('dummy weights off: every launch loads the real weights');
    expect(f).toMatch(/\bd dummy weights\b/);
    expect(f).not.toContain('weights: dummy');
    await r.press('d');
    f = await r.waitForFrame((fr) => fr.includes('dummy weights on') && /engine on defaults/.test(fr), 20_000);
    // The engine stage: all three load dummy weights, each engine's spelling named (TensorRT-LLM's in its YAML).
    expect(engineRow(f)).toMatch(
      /weights: dummy \(--load-format dummy; TensorRT-LLM: load_format: dummy in its --extra_llm_api_options YAML/,
    );
    expect(specRow(f)).toMatch(/weights: real for all 1 variant\(s\): speculative decoding: draft acceptance depends on the real weights/);
    // The focused stage's detail gives the whole line, the row what fits; validation stays real.
    expect(f).toMatch(/client sends\s+ignore_eos\) for all 3 variant\(s\)/);
    expect(f).toContain('validation loads the real weights');
    // A focused vLLM or SGLang variant shows the command that would launch: with the dummy load format.
    for (let i = 0; i < 3 && !/\$ (vllm|python3 -m sglang)/.test(r.frame()); i++) await r.press('down');
    expect(await r.waitForFrame(/--load-format dummy/)).toMatch(/\$ (vllm|python3 -m sglang)/);
    // Off again, then on, then Enter: the session is started with the choice shown.
    await r.press('d');
    await r.waitForFrame(
      (fr) => fr.includes('dummy weights off') && /engine\s+\S/.test(fr) && !fr.includes('Planning…') && !fr.includes('weights: dummy'),
      20_000,
    );
    await r.press('d');
    await r.waitForFrame((fr) => /engine\s+weights: dummy \(--load-format dummy/.test(fr), 20_000);
    await r.press('enter');
    await r.waitForFrame('4/6 Run');
    await expect.poll(() => configs.length).toBe(1);
    expect(configs[0]!.dummyWeights).toBe(true);
    // The same setting the command-line flag makes.
    expect(parseAutoArgs([...flags(), '--dummy-weights']).config!.dummyWeights).toBe(true);
  });

  it('starts on with --dummy-weights, and d turns it off for the session launched', async () => {
    const { r, configs } = await toPlan(['--dummy-weights']);
    expect(engineRow(r.frame())).toMatch(/weights: dummy \(--load-format dummy; TensorRT-LLM: load_format: dummy/);
    expect(r.frame()).toContain('dummy weights on');
    await r.press('d');
    await r.waitForFrame(
      (fr) => fr.includes('dummy weights off') && /engine on defaults/.test(fr) && !fr.includes('weights: dummy'),
      20_000,
    );
    await r.press('enter');
    await r.waitForFrame('4/6 Run');
    await expect.poll(() => configs.length).toBe(1);
    expect(configs[0]!.dummyWeights).toBeUndefined();
  });
});
