// The session's compile-cache folder reaches the engines through the one launch path.
import { describe, expect, it } from 'vitest';
import { launchContext, prepareLaunch } from '../../../../src/tune/launch/launch.js';
import { makeVariant } from '../../../../src/tune/plan/variant-ids.js';

const v = makeVariant('vllm', 'Qwen/Qwen3-14B', {}, { model: 'Qwen/Qwen3-14B' });
const at = { port: 8100, runDir: 'run/logs/vllm' };

describe('per-session compile caches', () => {
  it('points vLLM at the session cache folder in the launched command, not in the saved engine env', () => {
    const p = prepareLaunch(v, launchContext({ bindHost: '127.0.0.1', runtime: { kind: 'native' } }, at), { cacheDir: 'run/cache' });
    expect(p.spec.env.VLLM_CACHE_ROOT).toBe('run/cache/vllm');
    expect(p.spec.env.TORCHINDUCTOR_CACHE_DIR).toBe('run/cache/torchinductor');
    expect(p.display).toContain('VLLM_CACHE_ROOT=run/cache/vllm');
    expect(p.engineEnv.VLLM_CACHE_ROOT).toBeUndefined();
  });

  it('pins a parallel variant to its GPUs in the command it runs', () => {
    const p = prepareLaunch(v, launchContext({ bindHost: '127.0.0.1', runtime: { kind: 'native' } }, { ...at, devices: [2, 3] }));
    expect(p.spec.env.CUDA_VISIBLE_DEVICES).toBe('2,3');
    expect(p.display).toContain('CUDA_VISIBLE_DEVICES=2,3');
    const d = prepareLaunch(
      v,
      launchContext({ bindHost: '127.0.0.1', runtime: { kind: 'docker', image: 'vllm/vllm-openai:v0.11.0' } }, { ...at, devices: [2, 3] }),
    );
    expect(d.spec.argv.join(' ')).toContain('--gpus "device=2,3"');
    // No cache env for a container (the folder is not mounted there).
    expect(
      prepareLaunch(v, launchContext({ bindHost: '127.0.0.1', runtime: { kind: 'docker', image: 'x' } }, at), { cacheDir: 'run/cache' })
        .spec.env.VLLM_CACHE_ROOT,
    ).toBeUndefined();
  });
});
