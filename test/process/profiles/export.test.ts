import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { exportDocker } from '../../../src/profiles/export/docker.js';
import { exportShell } from '../../../src/profiles/export/shell.js';
import { exportSystemd, systemdQuote } from '../../../src/profiles/export/systemd.js';
import { exportK8s } from '../../../src/profiles/export/k8s.js';
import { containerArgv, officialImage, serverPort } from '../../../src/profiles/export/common.js';
import { deepseekR1Study, glm46Study, qwen3Study } from '../../../scripts/studies.js';
import type { Profile } from '../../../src/profiles/schema/profile.js';

/** systemd's ExecStart word splitting (quotes, C escapes, %% and $$), enough to check our quoting. */
function systemdSplit(line: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ') i++;
    if (i >= line.length) break;
    let w = '';
    const quote = line[i] === '"' || line[i] === "'" ? line[i++] : null;
    while (i < line.length && (quote ? line[i] !== quote : line[i] !== ' ')) {
      if (line[i] === '\\') {
        const c = line[i + 1]!;
        w += c === 'n' ? '\n' : c === 't' ? '\t' : c;
        i += 2;
      } else w += line[i++];
    }
    if (quote) i++;
    words.push(w.replace(/%%/g, '%').replace(/\$\$/g, '$'));
  }
  return words;
}

const awkward: Profile = (() => {
  const p = qwen3Study();
  p.engineArgv = [...p.engineArgv, '--served-model-name', "my model's 100% $HOME", '--json-arg', '{"a": "b\\c"}', ''];
  p.env = { VLLM_ATTENTION_BACKEND: 'FLASHINFER', NOTE: 'two words' };
  return p;
})();

describe('export shell', () => {
  it('runs the exact argv through a real shell', () => {
    const script = exportShell(awkward, 'p.json');
    expect(script.startsWith('#!/usr/bin/env bash\n')).toBe(true);
    // Replace the exec'd program with printf so the shell shows the words it would pass.
    const probe = script.replace(/^exec python3 /m, "exec printf '%s\\n' python3 ").replace(' "$@"', ' "$@"; ');
    const out = spawnSync('bash', ['-c', probe, 'script'], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(awkward.engineArgv.map((a) => a + '\n').join(''));
    const env = spawnSync('bash', ['-c', script.replace(/^exec .*$/m, 'echo "$VLLM_ATTENTION_BACKEND|$NOTE"')], { encoding: 'utf8' });
    expect(env.stdout).toBe('FLASHINFER|two words\n');
  });
});

describe('export docker', () => {
  it('names the official image at the recorded version', () => {
    expect(officialImage(qwen3Study())).toBe('lmsysorg/sglang:v0.5.5.post1');
    expect(officialImage(glm46Study())).toBe('vllm/vllm-openai:v0.11.0');
    const trt = qwen3Study();
    trt.engine = { name: 'trtllm', version: '1.2.0rc1', runtime: { kind: 'native' } };
    expect(officialImage(trt)).toBe('nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc1');
    const pinned = glm46Study();
    pinned.engine.runtime = { kind: 'docker', image: 'vllm/vllm-openai:v0.11.0-cu129' };
    expect(officialImage(pinned)).toBe('vllm/vllm-openai:v0.11.0-cu129');
  });

  it('is one docker run line that keeps the argv and listens on all interfaces', () => {
    const text = exportDocker(glm46Study(), 'g.json');
    const line = text.split('\n').find((l) => l.startsWith('docker run'))!;
    expect(line).toContain('--gpus all --ipc=host -p 8000:8000');
    expect(line).toContain(
      '--entrypoint vllm vllm/vllm-openai:v0.11.0 serve zai-org/GLM-4.6-FP8 -tp 8 --max-num-batched-tokens 8192 --host 0.0.0.0',
    );
    const out = spawnSync('bash', ['-c', `printf '%s\\n' ${line.slice('docker '.length)}`], { encoding: 'utf8', env: { HOME: '/home/u' } });
    const words = out.stdout.trimEnd().split('\n');
    expect(words).toContain('/home/u/.cache/huggingface:/root/.cache/huggingface');
  });

  it("uses the server's own port", () => {
    expect(serverPort(qwen3Study())).toBe(30000);
    const p = glm46Study();
    p.engineArgv = [...p.engineArgv, '--port', '9001', '--host', '127.0.0.1'];
    expect(serverPort(p)).toBe(9001);
    expect(containerArgv(p.engineArgv).slice(-4)).toEqual(['--port', '9001', '--host', '0.0.0.0']);
  });
});

describe('export systemd', () => {
  it('ExecStart holds the exact argv', () => {
    const unit = exportSystemd(awkward, 'p.json');
    const exec = unit.split('\n').find((l) => l.startsWith('ExecStart='))!;
    expect(systemdSplit(exec.slice('ExecStart='.length))).toEqual(awkward.engineArgv);
    const envLines = unit.split('\n').filter((l) => l.startsWith('Environment='));
    expect(envLines.map((l) => systemdSplit(l.slice('Environment='.length))[0])).toEqual([
      'VLLM_ATTENTION_BACKEND=FLASHINFER',
      'NOTE=two words',
    ]);
    expect(unit).toMatch(/\[Unit\][\s\S]*\[Service\][\s\S]*\[Install\]\nWantedBy=multi-user.target/);
  });

  it('quotes only when needed', () => {
    expect(systemdQuote('--tp-size')).toBe('--tp-size');
    expect(systemdQuote('a b')).toBe('"a b"');
    expect(systemdQuote('50%')).toBe('50%%');
    expect(systemdQuote('')).toBe('""');
  });
});

describe('export k8s', () => {
  it('is a Deployment and a Service that parse as YAML', () => {
    const p = deepseekR1Study();
    const docs = parseAllDocuments(exportK8s(p, 'd.json'));
    expect(Array.isArray(docs)).toBe(true);
    const [dep, svc] = (docs as ReturnType<typeof parseAllDocuments> & unknown[]).map((d) => {
      expect((d as { errors: unknown[] }).errors).toEqual([]);
      return (d as { toJS(): any }).toJS();
    });
    expect(dep.kind).toBe('Deployment');
    expect(svc.kind).toBe('Service');
    const c = dep.spec.template.spec.containers[0];
    expect(c.image).toBe('lmsysorg/sglang:v0.5.3');
    expect([...c.command, ...c.args]).toEqual([...p.engineArgv, '--host', '0.0.0.0']);
    expect(c.resources.limits['nvidia.com/gpu']).toBe('8');
    expect(c.readinessProbe.httpGet).toEqual({ path: '/health', port: 'http' });
    expect(c.ports[0].containerPort).toBe(30000);
    expect(c.volumeMounts).toContainEqual({ name: 'hf-cache', mountPath: '/root/.cache/huggingface' });
    expect(dep.spec.template.spec.volumes.map((v: { name: string }) => v.name)).toContain('hf-cache');
    expect(svc.spec.selector).toEqual(dep.spec.selector.matchLabels);
    expect(svc.spec.ports[0].port).toBe(30000);
    expect(dep.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
  });

  it('keeps env and takes the HF token from a Secret', () => {
    const docs = parseAllDocuments(exportK8s(awkward, 'p.json')) as unknown as { toJS(): any }[];
    const env = docs[0]!.toJS().spec.template.spec.containers[0].env;
    expect(env).toContainEqual({ name: 'NOTE', value: 'two words' });
    expect(env.find((e: { name: string }) => e.name === 'HF_TOKEN').valueFrom.secretKeyRef.name).toBe('hf-token');
  });
});

describe('files the command reads (TensorRT-LLM YAML)', () => {
  function trtProfile(): Profile {
    const p = qwen3Study();
    p.engine = { name: 'trtllm', version: '1.2.0rc1', runtime: { kind: 'native' } };
    p.variant = {
      id: 'trt-fp8',
      engine: 'trtllm',
      model: 'Qwen/Qwen3-14B-FP8',
      knobs: { kvCacheDtype: 'fp8', attentionBackend: 'flashinfer' },
    };
    p.engineArgv = ['trtllm-serve', 'Qwen/Qwen3-14B-FP8', '--extra_llm_api_options', '/old/run/extra_llm_api_options.yaml'];
    p.files = [];
    return p;
  }

  it('are rebuilt from the variant when a profile lacks them', async () => {
    const { parseProfile, serializeProfile } = await import('../../../src/profiles/store/store.js');
    const p = parseProfile(serializeProfile(trtProfile()), 't.json');
    expect(p.files).toHaveLength(1);
    expect(p.files[0]!.path).toBe('/old/run/extra_llm_api_options.yaml');
    expect(p.files[0]!.content).toContain('kv_cache_config:');
    expect(p.files[0]!.content).toContain('attn_backend: FLASHINFER');
  });

  it('the shell export writes them and points the argv there', async () => {
    const { parseProfile, serializeProfile } = await import('../../../src/profiles/store/store.js');
    const p = parseProfile(serializeProfile(trtProfile()), 't.json');
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'servelab-files-'));
    try {
      const script = exportShell(p, 't.json').replace(/^exec trtllm-serve /m, "exec printf '%s\\n' trtllm-serve ");
      const out = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { ...process.env, SERVELAB_FILES_DIR: dir } });
      expect(out.status, out.stderr).toBe(0);
      expect(out.stdout.trimEnd().split('\n')).toEqual([
        'trtllm-serve',
        'Qwen/Qwen3-14B-FP8',
        '--extra_llm_api_options',
        join(dir, 'extra_llm_api_options.yaml'),
      ]);
      expect(readFileSync(join(dir, 'extra_llm_api_options.yaml'), 'utf8')).toBe(p.files[0]!.content);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('k8s carries them in a ConfigMap mounted where the argv looks', async () => {
    const { parseProfile, serializeProfile } = await import('../../../src/profiles/store/store.js');
    const p = parseProfile(serializeProfile(trtProfile()), 't.json');
    const docs = (parseAllDocuments(exportK8s(p, 't.json')) as unknown as { toJS(): any }[]).map((d) => d.toJS());
    expect(docs.map((d) => d.kind)).toEqual(['ConfigMap', 'Deployment', 'Service']);
    expect(docs[0].data['extra_llm_api_options.yaml']).toBe(p.files[0]!.content);
    const c = docs[1].spec.template.spec.containers[0];
    expect(c.args).toContain('/etc/servelab/extra_llm_api_options.yaml');
    expect(c.volumeMounts).toContainEqual({ name: 'engine-files', mountPath: '/etc/servelab', readOnly: true });
    expect(c.image).toBe('nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc1');
  });

  it('serve writes them into its run folder', async () => {
    const { parseProfile, serializeProfile } = await import('../../../src/profiles/store/store.js');
    const { serveSpec } = await import('../../../src/tune/replay/serve-profile.js');
    const p = parseProfile(serializeProfile(trtProfile()), 't.json');
    const spec = serveSpec(p, { sim: false, speed: 1, runDir: '/runs/serve-1' });
    expect(spec.argv).toEqual([
      'trtllm-serve',
      'Qwen/Qwen3-14B-FP8',
      '--extra_llm_api_options',
      '/runs/serve-1/extra_llm_api_options.yaml',
    ]);
    expect(spec.files).toEqual([{ path: '/runs/serve-1/extra_llm_api_options.yaml', content: p.files[0]!.content }]);
  });

  it('serve in a container mounts its run folder where the argv reads the files', async () => {
    const { parseProfile, serializeProfile } = await import('../../../src/profiles/store/store.js');
    const { serveSpec } = await import('../../../src/tune/replay/serve-profile.js');
    const p = parseProfile(serializeProfile(trtProfile()), 't.json');
    p.engine.runtime = { kind: 'docker', image: 'nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc1' };
    const spec = serveSpec(p, { sim: false, speed: 1, runDir: '/runs/serve-2' });
    expect(spec.argv.join(' ')).not.toContain('@@');
    const mounts = spec.argv.flatMap((a, i) => (spec.argv[i - 1] === '-v' ? [a] : []));
    expect(mounts).toContain('/runs/serve-2:/etc/servelab:ro');
    expect(spec.argv.slice(spec.argv.indexOf('--extra_llm_api_options'))[1]).toBe('/etc/servelab/extra_llm_api_options.yaml');
    expect(spec.files).toEqual([{ path: '/runs/serve-2/extra_llm_api_options.yaml', content: p.files[0]!.content }]);
  });

  it('a profile without a release version gets :latest and a warning', () => {
    const p = qwen3Study();
    p.engine.version = 'unknown';
    expect(officialImage(p)).toBe('lmsysorg/sglang:latest');
    expect(exportDocker(p, 'x.json')).toContain('no engine release was recorded');
  });

  it('a profile tuned on the simulated host names the release its commands are spelled for, marked simulated, in every format', async () => {
    const { slurmScript } = await import('../../../src/profiles/export/slurm.js');
    const { DEFAULT_VERSION } = await import('../../../src/engines/data/versions.js');
    const p = qwen3Study();
    p.engine = { name: 'trtllm', version: 'simulated', runtime: { kind: 'native' } };
    p.host.simulated = true;
    p.engineArgv = ['trtllm-serve', 'Qwen/Qwen3-14B-FP8'];
    p.files = [];
    const rel = DEFAULT_VERSION.trtllm;
    expect(officialImage(p)).toBe(`nvcr.io/nvidia/tensorrt-llm/release:${rel}`);
    for (const text of [
      exportShell(p, 'x.json'),
      exportDocker(p, 'x.json'),
      exportSystemd(p, 'x.json'),
      exportK8s(p, 'x.json'),
      slurmScript(p, 'x.json'),
    ]) {
      expect(text).toContain(`trtllm ${rel} (simulated)`);
      expect(text).not.toMatch(/trtllm simulated/);
    }
    expect(exportShell(p, 'x.json')).toContain(
      `# simulated host: no engine ran; the commands are spelled for trtllm ${rel}: validate them on a GPU host before serving`,
    );
    // A variant that recorded the release it was spelled for keeps it.
    p.variant = { ...p.variant, engine: 'trtllm', engineVersion: '1.0.0' };
    expect(officialImage(p)).toBe('nvcr.io/nvidia/tensorrt-llm/release:1.0.0');
  });
});

describe('hostile profile data in exports', () => {
  it('a file whose content holds the here-doc delimiter is written, not run', () => {
    const p = qwen3Study();
    p.files = [{ path: '/x/extra.yaml', content: 'a: 1\nSERVELAB_EOF\ntouch /tmp/servelab-pwned-$$\n' }];
    p.engineArgv = ['echo', '--config', '/x/extra.yaml'];
    const dir = spawnSync('mktemp', ['-d']).stdout.toString().trim();
    const script = exportShell(p, 'evil.json');
    const r = spawnSync('bash', ['-c', `${script.replace(/^exec /m, 'cat "$dir/extra.yaml"; echo ')}`], {
      env: { ...process.env, SERVELAB_FILES_DIR: dir },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    // The file holds all three lines, the delimiter line included, and nothing ran.
    expect(r.stdout.startsWith('a: 1\nSERVELAB_EOF\ntouch /tmp/servelab-pwned-$$\n')).toBe(true);
    expect(script).toContain("<<'SERVELAB_EOF_2'");
  });

  it('a newline in a profile field cannot end a comment line', () => {
    const p = qwen3Study();
    p.model = 'm\ntouch /tmp/servelab-pwned';
    const q = { ...p, engine: { ...p.engine, version: '1\n[Service]\nExecStartPre=/bin/sh -c evil' } };
    // (In the docker line the version is also the image tag, inside shell quotes: not a line start.)
    for (const text of [exportShell(q, 'f\nrm -rf ~.json'), exportDocker(p, 'f\nrm -rf ~.json'), exportSystemd(q, 'f.json')]) {
      for (const line of text.split('\n')) {
        expect(line).not.toMatch(/^touch|^rm -rf|^ExecStartPre/);
      }
    }
  });
});
