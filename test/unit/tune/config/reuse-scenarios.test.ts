// The shared-prefix and trace workloads as the tuner, replay and the profile carry them:
// named on the command line, loaded for a launch, recorded in a profile and read back.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { benchCommand, parseScenario } from '../../../../src/tune/config/scenarios.js';
import { scenarioForWorkload, workloadFromScenario } from '../../../../src/tune/config/profile-workload.js';
import { loadScenario } from '../../../../src/tune/launch/workloads.js';
import { WorkloadSchema } from '../../../../src/profiles/schema/profile.js';

const SAMPLE = fileURLToPath(new URL('../../../fixtures/bench/mooncake-small.jsonl', import.meta.url));

describe('reuse scenarios', () => {
  it('prefix:PREFIX/SUFFIX/PREFIXES/OUT loads as vLLM prefix_repetition and survives a profile', async () => {
    const s = parseScenario('prefix:64/16/4/8', { scale: 1, numPrompts: 12 });
    expect(s).toMatchObject({ dataset: 'prefix_repetition', prefixLen: 64, inputLen: 16, numPrefixes: 4, outputLen: 8, numPrompts: 12 });
    const w = await loadScenario(s, 'no-such-model');
    expect(w.requests).toHaveLength(12);
    expect(w.requests.every((r) => r.promptLen === 80 && r.expectedOutputLen === 8)).toBe(true);
    expect(w.requests.filter((r) => (r.reusableLen ?? 0) >= 64)).toHaveLength(8);
    const recorded = WorkloadSchema.parse(workloadFromScenario(s));
    expect(scenarioForWorkload(recorded, { simulated: true }).scenario).toMatchObject({ ...s, label: s.label });
    expect(benchCommand(s, 'm')).toContain(
      '--dataset-name prefix_repetition --prefix-repetition-prefix-len 64 --prefix-repetition-suffix-len 16 --prefix-repetition-num-prefixes 4 --prefix-repetition-output-len 8',
    );
  });

  it('trace:FILE replays a Mooncake trace at its times; the profile keeps the file and block size', async () => {
    const s = { ...parseScenario(`trace:${SAMPLE}`, { scale: 1 }), traceBlockSize: 64 };
    const w = await loadScenario(s, 'no-such-model');
    expect(w.requests).toHaveLength(16);
    expect(w.requests.every((r) => r.arrivalS !== undefined)).toBe(true);
    const recorded = WorkloadSchema.parse(workloadFromScenario(s));
    expect(recorded).toMatchObject({ dataset: 'mooncake_trace', datasetPath: SAMPLE, traceBlockSize: 64 });
    expect(scenarioForWorkload(recorded, { simulated: false }).scenario).toMatchObject({ datasetPath: SAMPLE, traceBlockSize: 64 });
    expect(() => scenarioForWorkload({ ...recorded, datasetPath: '/nonexistent.jsonl' }, { simulated: false })).toThrow(
      /pass --dataset-path/,
    );
    expect(benchCommand(s, 'm')).toMatch(/^servelab bench .*--dataset-name mooncake_trace --dataset-path \S+ --trace-block-size 64/);
  });
});
