// Failure triage on the engines' own texts (quoted in src/engines/data/corpus.json; sources in docs/engines.md, Failure texts).
import { describe, expect, it } from 'vitest';
import { classifyFromLog } from '../../../src/engines/failures.js';
import { FAILURE_RULES } from '../../../src/engines/failure-rules.js';
import { shortGpuName } from '../../../src/engines/kit/failure-rules.js';
import { sglang } from '../../../src/engines/sglang/adapter.js';
import { trtllm } from '../../../src/engines/trtllm/adapter.js';
import { vllm } from '../../../src/engines/vllm/adapter.js';

const died = { code: 1, signal: null };
const A100 = { gpu: { name: 'NVIDIA A100-SXM4-80GB', computeCap: '8.0' } };

describe("the studies' SGLang FP8 on A100 failure", () => {
  const log = [
    "[2025-10-01 10:00:01] server_args=ServerArgs(model_path='zai-org/GLM-4.6-FP8', tp_size=8, ...)",
    '[2025-10-01 10:01:12 TP3] Scheduler hit an exception: Traceback (most recent call last):',
    '  File "/usr/local/lib/python3.10/dist-packages/triton/language/core.py", line 35, in wrapper',
    '    return fn(*args, **kwargs)',
    "ValueError(\"type fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e5')\")",
    '[2025-10-01 10:01:12] Received sigquit from a child process. It usually means the child failed.',
  ];

  it('is unsupported on this GPU, naming the GPU and its compute capability', () => {
    const f = sglang.classifyFailure(log, { code: null, signal: 'SIGKILL' }, A100);
    expect(f.kind).toBe('unsupported');
    expect(f.reason).toBe('FP8 is not supported on this GPU (A100, compute capability 8.0)');
    expect(f.evidence?.[0]).toContain('type fp8e4nv not supported in this architecture');
    expect(f.hint).toMatch(/8\.9/);
  });

  it('still says unsupported without host context', () => {
    const f = sglang.classifyFailure(log, { code: null, signal: 'SIGKILL' });
    expect(f.kind).toBe('unsupported');
    expect(f.reason).toBe('FP8 is not supported on this GPU');
  });
});

describe('classification by kind', () => {
  const cases: [string, typeof vllm, string[], string][] = [
    [
      'vllm OOM at start',
      vllm,
      [
        'ValueError: Free memory on device (10.2/79.1 GiB) on startup is less than desired GPU memory utilization (0.9, 71.2 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.',
      ],
      'oom',
    ],
    [
      'vllm KV too small',
      vllm,
      [
        "ValueError: To serve at least one request with the models's max seq len (131072), (20.0 GiB KV cache is needed, which is larger than the available KV cache memory (8.1 GiB).",
      ],
      'oom',
    ],
    ['sglang not enough memory', sglang, ['RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.'], 'oom'],
    ['torch OOM', trtllm, ['torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.'], 'oom'],
    [
      'vllm fp8 on Turing',
      vllm,
      ['ValueError: The quantization method fp8 is not supported for the current GPU. Minimum capability: 80. Current capability: 75.'],
      'unsupported',
    ],
    [
      'vllm model not found',
      vllm,
      ["ValueError: Invalid repository ID or local directory specified: 'Qwen/Qwen9-1B'. Please verify the following requirements:"],
      'model-not-found',
    ],
    [
      'sglang model not found',
      sglang,
      ["OSError: Qwen/Qwen9-1B is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'"],
      'model-not-found',
    ],
    ['vllm port', vllm, ['OSError: [Errno 98] Address already in use'], 'port-in-use'],
    [
      'sglang port after load',
      sglang,
      ["ERROR:    [Errno 98] error while attempting to bind on address ('127.0.0.1', 30000): address already in use"],
      'port-in-use',
    ],
    ['trtllm port', trtllm, ['RuntimeError: Failed to bind socket to localhost:8000: [Errno 98] Address already in use'], 'port-in-use'],
    [
      'vllm heads',
      vllm,
      ['ValueError: Total number of attention heads (40) must be divisible by tensor parallel size (3).'],
      'tp-mismatch',
    ],
    [
      'sglang bare assert',
      sglang,
      [
        '  File "/sgl/python/sglang/srt/models/qwen3.py", line 60, in __init__',
        '    assert self.total_num_heads % tp_size == 0',
        'AssertionError',
      ],
      'tp-mismatch',
    ],
    [
      'argparse',
      vllm,
      ['usage: vllm serve [model_tag] [options]', 'vllm serve: error: unrecognized arguments: --frobnicate 3'],
      'bad-flag',
    ],
    [
      'argparse choice',
      sglang,
      ["launch_server.py: error: argument --attention-backend: invalid choice: 'fa9' (choose from 'fa3', 'flashinfer')"],
      'bad-flag',
    ],
    ['click', trtllm, ['Error: No such option: --tp-size Did you mean --tp_size?'], 'bad-flag'],
  ];
  it.each(cases)('%s', (_name, adapter, lines, kind) => {
    const f = adapter.classifyFailure(['INFO loading...', ...lines, 'EngineCore failed to start.'], died);
    expect(f.kind).toBe(kind);
    expect(f.reason.length).toBeGreaterThan(5);
    expect(f.reason).not.toContain('\n');
    expect(f.hint).toBeTruthy();
    expect(f.evidence?.some((e) => lines.includes(e))).toBe(true);
  });

  it('names the offending argument and values in the reason', () => {
    expect(vllm.classifyFailure(['vllm serve: error: unrecognized arguments: --frobnicate 3'], died).reason).toContain('--frobnicate 3');
    expect(
      vllm.classifyFailure(['ValueError: Total number of attention heads (40) must be divisible by tensor parallel size (3).'], died)
        .reason,
    ).toBe('40 attention heads are not divisible by tensor parallel size 3');
  });

  it('a time-out without a telling line is startup-timeout; with one, the root cause wins', () => {
    const plain = trtllm.classifyFailure(['[TRT-LLM] [I] Autotuning process starts'], { code: null, signal: 'SIGTERM', timedOut: true });
    expect(plain.kind).toBe('startup-timeout');
    const oom = trtllm.classifyFailure(['torch.OutOfMemoryError: CUDA out of memory.'], { code: null, signal: 'SIGTERM', timedOut: true });
    expect(oom.kind).toBe('oom');
  });

  it('an unexplained death is a crash quoting the last error line', () => {
    const f = vllm.classifyFailure(['INFO x', 'RuntimeError: NCCL error: unhandled system error', 'INFO y'], { code: 1, signal: null });
    expect(f.kind).toBe('crash');
    expect(f.reason).toBe('the server exited with code 1: RuntimeError: NCCL error: unhandled system error');
    expect(f.evidence).toEqual(['RuntimeError: NCCL error: unhandled system error']);
  });

  it('engine-specific rules stay with their engine', () => {
    const line = ['RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.'];
    expect(classifyFromLog('vllm', line, died).kind).toBe('crash');
    expect(classifyFromLog('sglang', line, died).kind).toBe('oom');
  });

  it('every rule has an id, a hint and a pattern that matches nothing empty', () => {
    const ids = new Set(FAILURE_RULES.map((r) => r.id));
    expect(ids.size).toBe(FAILURE_RULES.length);
    for (const r of FAILURE_RULES) {
      expect(r.hint.length).toBeGreaterThan(10);
      expect(r.pattern.test('')).toBe(false);
    }
  });

  it('shortens GPU names', () => {
    expect(shortGpuName('NVIDIA A100-SXM4-80GB')).toBe('A100');
    expect(shortGpuName('NVIDIA H100 80GB HBM3')).toBe('H100');
    expect(shortGpuName('NVIDIA H200')).toBe('H200');
    expect(shortGpuName('NVIDIA L40S')).toBe('L40S');
  });
});

describe("the simulator's failure texts classify like the engines'", () => {
  it('SGLang bare AssertionError in the attention __init__ is a TP mismatch', () => {
    const lines = [
      '[2025-10-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):',
      '  File "python/sglang/srt/layers/radix_attention.py", line 58, in __init__',
      'AssertionError',
      '[2025-10-01 10:00:00] Received sigquit from a child process. It usually means the child failed.',
    ];
    const f = sglang.classifyFailure(lines, { code: null, signal: 'SIGKILL' });
    expect(f.kind).toBe('tp-mismatch');
    expect(f.evidence).toContain('AssertionError');
    // A bare AssertionError elsewhere is not proof of a TP mismatch.
    expect(sglang.classifyFailure(['  File "x/sampler.py", line 3, in sample', 'AssertionError'], died).kind).toBe('crash');
  });

  it('vLLM\'s real "required GPUs" text is unsupported, with or without the newer counts (docs/engines.md, Failure texts)', () => {
    const old = vllm.classifyFailure(
      ['ValueError: The number of required GPUs exceeds the total number of available GPUs in the placement group.'],
      died,
    );
    expect(old).toMatchObject({ kind: 'unsupported', reason: 'the parallel layout needs more GPUs than this host shows' });
    // The newer suffix as the audit quotes it ("Required number of devices: N. Total number of devices: M.").
    const newer = vllm.classifyFailure(
      [
        'ValueError: The number of required GPUs exceeds the total number of available GPUs in the placement group. Required number of devices: 16. Total number of devices: 8.',
      ],
      died,
    );
    expect(newer.reason).toBe('the parallel layout needs 16 GPUs, this host has 8');
  });

  it('has no rule for an FP8-on-Ampere TensorRT-LLM text, since no real one is known (preflight prunes it)', () => {
    expect(FAILURE_RULES.some((r) => r.id === 'fp8-not-supported')).toBe(false);
    expect(trtllm.classifyFailure(['[TRT-LLM] [W] FP8 fused MoE is not supported on this path; falling back'], died).kind).toBe('crash');
  });

  it("vLLM's own FP8 capability message keeps its numbers", () => {
    const f = vllm.classifyFailure(
      ['ValueError: The quantization method fp8 is not supported for the current GPU. Minimum capability: 80. Current capability: 75.'],
      died,
    );
    expect(f.reason).toBe('FP8 is not supported on this GPU (compute capability 7.5): needs 8.0');
  });
});

describe('Hub connectivity', () => {
  it('is fatal only when the cache has no copy either', () => {
    const fatal =
      "OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files and it looks like Qwen/Qwen3-14B is not the path to a directory containing a file named config.json.";
    expect(vllm.classifyFailure([fatal], died).kind).toBe('model-not-found');
    const warning = "WARNING: We couldn't connect to 'https://huggingface.co' to load this file, trying the cached files";
    expect(vllm.classifyFailure([warning], died).kind).toBe('crash');
  });
});
