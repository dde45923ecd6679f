import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkRunnable, dockerImageOf, launcherOf } from '../../../src/profiles/safety/command.js';
import { formatCommand, shellQuote } from '../../../src/core/shell-quote.js';
import { isSecretEnvKey, redactArgv, redactEnv } from '../../../src/profiles/safety/redact.js';

describe('shellQuote', () => {
  it('round-trips through a real shell', () => {
    const args = ['plain', 'with space', "it's", '$HOME', '`id`', 'a"b', '', '--x={"k": [1, 2]}', 'tab\there', '*'];
    const line = `printf '%s\\n' ${args.map(shellQuote).join(' ')}`;
    const out = spawnSync('sh', ['-c', line], { encoding: 'utf8' });
    expect(out.stdout).toBe(args.map((a) => a + '\n').join(''));
  });

  it('leaves plain flags bare', () => {
    expect(
      formatCommand(['vllm', 'serve', 'Qwen/Qwen3-14B', '--max-num-batched-tokens', '8192'], { VLLM_ATTENTION_BACKEND: 'FLASHINFER' }),
    ).toBe('VLLM_ATTENTION_BACKEND=FLASHINFER vllm serve Qwen/Qwen3-14B --max-num-batched-tokens 8192');
  });
});

describe('launcherOf', () => {
  it("knows the engines' launchers", () => {
    expect(launcherOf(['vllm', 'serve', 'm'])).toBe('vllm');
    expect(launcherOf(['/opt/venv/bin/vllm', 'serve', 'm'])).toBe('vllm');
    expect(launcherOf(['python3', '-m', 'sglang.launch_server', '--model-path', 'm'])).toBe('sglang');
    expect(launcherOf(['/usr/bin/python3.11', '-m', 'sglang.launch_server'])).toBe('sglang');
    expect(launcherOf(['trtllm-serve', 'm'])).toBe('trtllm');
    expect(launcherOf(['docker', 'run', '--gpus', 'all', 'vllm/vllm-openai:v0.11.0', 'm'])).toBe('docker');
    expect(launcherOf(['node', 'bin/servelab.js', 'sim-serve', '--engine', 'vllm'])).toBe('sim');
    expect(launcherOf(['/usr/local/bin/node', '/x/y/bin/servelab.js', 'sim-serve'])).toBe('sim');
    // What an installed (built) servelab records for its simulated launches.
    expect(launcherOf(['/usr/bin/node', '/usr/lib/node_modules/servelab/dist/cli.js', 'sim-serve'])).toBe('sim');
    expect(launcherOf(['/usr/bin/node', '/x/dist/other.js', 'sim-serve'])).toBe(null);
  });

  it('refuses anything else', () => {
    expect(launcherOf(['sh', '-c', 'vllm serve m'])).toBeNull();
    expect(launcherOf(['python3', '-c', 'import os'])).toBeNull();
    expect(launcherOf(['python3', '-m', 'http.server'])).toBeNull();
    expect(launcherOf(['vllm', 'bench'])).toBeNull();
    expect(launcherOf(['docker', 'run', '-v', '/:/host', 'alpine', 'sh'])).toBeNull();
    expect(launcherOf(['node', 'evil.js', 'sim-serve'])).toBeNull();
    expect(launcherOf([])).toBeNull();
  });

  it('finds the official image in a docker argv', () => {
    expect(dockerImageOf(['docker', 'run', 'lmsysorg/sglang:v0.5.3', 'python3'])).toBe('lmsysorg/sglang:v0.5.3');
    expect(dockerImageOf(['docker', 'run', 'nvcr.io/nvidia/tensorrt-llm/release:1.0.0'])).toBe('nvcr.io/nvidia/tensorrt-llm/release:1.0.0');
    expect(dockerImageOf(['docker', 'run', 'evil/vllm-openai:v1'])).toBeNull();
  });
});

describe('checkRunnable', () => {
  it('refuses an unknown executable in one line, unless allowed', () => {
    expect(() => checkRunnable(['bash', '-c', 'rm -rf ~'], {}, 'p.json')).toThrow(
      /^profile p\.json: refusing to run 'bash -c .*--allow-any-command/,
    );
    expect(checkRunnable(['bash', '-c', 'true'], {}, 'p.json', true)).toBeNull();
  });

  it('refuses env that changes what runs', () => {
    expect(() => checkRunnable(['vllm', 'serve', 'm'], { LD_PRELOAD: '/tmp/x.so' }, 'p.json')).toThrow(/LD_PRELOAD/);
    expect(() => checkRunnable(['vllm', 'serve', 'm'], { PYTHONPATH: '/tmp' }, 'p.json')).toThrow(/PYTHONPATH/);
    expect(checkRunnable(['vllm', 'serve', 'm'], { VLLM_ATTENTION_BACKEND: 'FLASHINFER' }, 'p.json')).toBe('vllm');
  });
});

describe('redaction', () => {
  it('drops secret-looking env keys and values, keeps ordinary ones', () => {
    for (const k of [
      'HF_TOKEN',
      'HUGGING_FACE_HUB_TOKEN',
      'OPENAI_API_KEY',
      'VLLM_API_KEY',
      'AWS_SECRET_ACCESS_KEY',
      'DB_PASSWORD',
      'GITHUB_TOKEN',
      'WANDB_API_KEY',
    ]) {
      expect(isSecretEnvKey(k), k).toBe(true);
    }
    for (const k of ['CUDA_VISIBLE_DEVICES', 'TOKENIZERS_PARALLELISM', 'VLLM_ATTENTION_BACKEND', 'NCCL_DEBUG', 'MAX_TOKENS', 'PWD']) {
      expect(isSecretEnvKey(k), k).toBe(false);
    }
    expect(redactEnv({ A: 'hf_abcdefghijklmnopqrstu1234', B: 'x', HF_TOKEN: 'y' })).toEqual({
      env: { B: 'x' },
      removed: ['A', 'HF_TOKEN'],
    });
  });

  it('masks secret flag values in argv', () => {
    expect(redactArgv(['vllm', 'serve', 'm', '--api-key', 'k', '--hf-token=t', '--port', '8000']).argv).toEqual([
      'vllm',
      'serve',
      'm',
      '--api-key',
      '<redacted>',
      '--hf-token=<redacted>',
      '--port',
      '8000',
    ]);
  });
});
