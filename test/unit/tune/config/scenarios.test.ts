import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { benchCommand, parseScenario, studyScenarios } from '../../../../src/tune/config/scenarios.js';

describe('scenarios', () => {
  it("gives the studies' five, scaled, with the synthetic ShareGPT stand-in when no file is given", () => {
    const s = studyScenarios({ scale: 0.2 });
    expect(s.map((x) => [x.name, x.numPrompts])).toEqual([
      ['sharegpt-like', 200],
      ['random-128-4', 200],
      ['random-2000-100', 100],
      ['random-4000-200', 100],
      ['random-32000-100', 20],
    ]);
    // The stand-in is the ShareGPT length table written as vLLM's custom JSONL (one line per prompt).
    expect(s[0]).toMatchObject({ dataset: 'custom', seed: 42 });
    expect(readFileSync(s[0]!.datasetPath!, 'utf8').trim().split('\n')).toHaveLength(200);
    expect(benchCommand(s[0]!, 'm')).toContain(
      `--dataset-name custom --dataset-path ${s[0]!.datasetPath} --custom-output-len -1 --skip-chat-template --num-prompts 200`,
    );
    const withFile = studyScenarios({ scale: 1, datasetPath: '/data/sg.json' });
    expect(withFile[0]).toMatchObject({ name: 'sharegpt', dataset: 'sharegpt', numPrompts: 1000, datasetPath: '/data/sg.json' });
  });

  it('parses short names and random shapes; rejects unknown ones', () => {
    expect(parseScenario('medium', { scale: 1 })).toMatchObject({ inputLen: 2000, outputLen: 100, numPrompts: 500 });
    expect(parseScenario('random:300/50', { scale: 1, numPrompts: 7 })).toMatchObject({ name: 'random-300-50', numPrompts: 7 });
    expect(() => parseScenario('huge', { scale: 1 })).toThrow(/unknown scenario 'huge'/);
    expect(() => parseScenario('sharegpt', { scale: 1 })).toThrow(/--dataset-path/);
  });

  it('writes the vllm bench serve command that reproduces a scenario', () => {
    const cmd = benchCommand(parseScenario('long', { scale: 1 }), 'Qwen/Qwen3-14B');
    expect(cmd).toContain('--dataset-name random --random-input-len 4000 --random-output-len 200 --num-prompts 500 --seed 42');
  });
});
