// The llamacpp adapter's command and metrics, without the binary: flag spellings from the knob
// table (llamacpp/knobs.ts), and the /metrics names of llama-server 80fb11a.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Variant } from '../../../src/core/variant.js';
import { getAdapter } from '../../../src/engines/index.js';
import { llamacpp } from '../../../src/engines/llamacpp/adapter.js';

const ctx = { host: '127.0.0.1', port: 8080, runDir: '/run', runtime: { kind: 'native' as const } };
const v = (knobs: Variant['knobs']): Variant => ({ id: 'x', engine: 'llamacpp', model: '/m/q.gguf', knobs });

describe('llamacpp adapter', () => {
  it('defaults: the model, its served name, host, port and /metrics; readiness on /health', () => {
    const s = getAdapter('llamacpp').command(v({}), { ...ctx, runtime: { kind: 'native', executable: 'llama-server' } });
    expect(s.argv).toEqual(['llama-server', '-m', '/m/q.gguf', '-a', '/m/q.gguf', '--host', '127.0.0.1', '--port', '8080', '--metrics']);
    expect(s.healthPath).toBe('/health');
  });

  it('spells every knob as llama-server 80fb11a does', () => {
    const s = llamacpp.command(
      v({
        maxRunningSeqs: 16,
        ctxSize: 16384,
        kvUnified: false,
        maxBatchedTokens: 1024,
        ubatch: 256,
        flashAttn: 'on',
        kvCacheDtype: 'q8_0',
        vCacheDtype: 'q4_0',
        threads: 2,
        threadsBatch: 2,
        contBatching: false,
        cacheReuse: 256,
        cacheRamMiB: 0,
        gpuLayers: 'all',
        fit: false,
        splitMode: 'row',
        tensorSplit: '3,1',
        repack: false,
        speculative: { method: 'draft', draftModel: '/m/d.gguf', draftTokens: 4 },
      }),
      { ...ctx, runtime: { kind: 'native', executable: '/opt/llama-server' } },
    );
    expect(s.argv.slice(10).join(' ')).toBe(
      '-c 16384 -np 16 -b 1024 -ub 256 -fa on -t 2 -tb 2 --cache-reuse 256 -cram 0 -ngl all -sm row -ts 3,1 -no-kvu -nocb --no-repack -ctk q8_0 -ctv q4_0 -fit off --spec-type draft-simple -md /m/d.gguf --spec-draft-n-max 4',
    );
    expect(s.argv[0]).toBe('/opt/llama-server');
  });

  it("runs the llama-server it finds (SERVELAB_LLAMA_SERVER, PATH, servelab's build) and records the plain name", () => {
    const old = process.env.SERVELAB_LLAMA_SERVER;
    process.env.SERVELAB_LLAMA_SERVER = process.execPath; // any executable file
    try {
      const s = llamacpp.command(v({}), ctx);
      expect(s.argv[0]).toBe(process.execPath);
      expect(s.engineArgv[0]).toBe('llama-server');
    } finally {
      if (old === undefined) delete process.env.SERVELAB_LLAMA_SERVER;
      else process.env.SERVELAB_LLAMA_SERVER = old;
    }
  });

  it('one KV type names both caches; maxModelLen becomes slots x length', () => {
    const s = llamacpp.command(v({ kvCacheDtype: 'q8_0', maxModelLen: 2048, maxRunningSeqs: 4 }), ctx);
    expect(s.argv.slice(10).join(' ')).toBe('-c 8192 -np 4 -ctk q8_0 -ctv q8_0');
  });

  it('refuses a value the release does not have, in one line', () => {
    expect(() => llamacpp.command(v({ flashAttn: 'maybe' }), ctx)).toThrow(
      "llama.cpp 0.4.0-dev has no flashAttn 'maybe' (use one of on, off, auto)",
    );
    expect(() => llamacpp.command(v({ speculative: { method: 'draft' } }), ctx)).toThrow(/needs a draft model/);
  });

  it('reads the llamacpp: metric names of a real scrape (slots processing, requests deferred, throughput gauges)', () => {
    const text = readFileSync(path.join(import.meta.dirname, '../../fixtures/engines/llamacpp-metrics.txt'), 'utf8');
    expect(llamacpp.parseMetrics(text)).toEqual({ running: 4, waiting: 4, promptTokPerS: 136.976, genTokPerS: 0 });
  });
});
