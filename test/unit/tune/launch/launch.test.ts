// The one launch path: what replay's consent prompt and the dry-run plan show is the argv the
// runner launches, --load-time included on the simulated host.
import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatCommand } from '../../../../src/core/shell-quote.js';
import { prepareReplay } from '../../../../src/tune/replay/replay.js';
import { simGpuFor } from '../../../../src/profiles/sim-gpu.js';
import { loadProfile } from '../../../../src/profiles/store/store.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { baseUrl, launchContext, prepareLaunch } from '../../../../src/tune/launch/launch.js';
import { planSession } from '../../../../src/tune/session/session.js';

describe('prepareLaunch', () => {
  const config = parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--engines', 'vllm', '--speed', '5']).config!;

  it('plays the modelled load instantly on the simulated host, and shows exactly what it runs', () => {
    const variant = { id: 'vllm', engine: 'vllm' as const, model: 'Qwen/Qwen3-14B', knobs: {} };
    const p = prepareLaunch(variant, launchContext(config, { port: 8123, runDir: join(tmpdir(), 'x') }));
    expect(p.spec.argv.slice(-2)).toEqual(['--load-time', '0']);
    expect(p.display).toBe(formatCommand(p.spec.argv, p.spec.env));
    expect(p.spec.engineArgv).toContain('--port');
    const served = prepareLaunch(variant, launchContext(config, { port: 8123, runDir: join(tmpdir(), 'x') }), { modelledLoad: true });
    expect(served.spec.argv).not.toContain('--load-time');
  });

  it('gives the dry-run plan the runner argv at the first port', async () => {
    const { plan } = await planSession(config);
    const pv = plan.stages[0]!.variants[0]!;
    const again = prepareLaunch(
      pv.variant,
      launchContext(config, { port: config.portStart, runDir: join(config.runsDir, 'RUN', 'logs', pv.variant.id) }),
    );
    expect(pv.argv).toEqual(again.spec.argv);
  });

  it('reaches a wildcard bind on loopback', () => {
    expect(baseUrl({ host: '0.0.0.0', port: 1 })).toBe('http://127.0.0.1:1');
    expect(baseUrl({ host: '::', port: 2 })).toBe('http://[::1]:2');
    expect(baseUrl({ host: '10.0.0.5', port: 3 })).toBe('http://10.0.0.5:3');
  });
});

describe('replay consent', () => {
  it('shows the command the runner launches, byte for byte', async () => {
    const file = join('profiles', 'Qwen3-14B-H100x1.json');
    const setup = await prepareReplay(loadProfile(file), file, {
      sim: true,
      speed: 5,
      tolerancePct: 10,
      readyTimeoutS: 60,
      logsDir: join(tmpdir(), 'servelab-replay-logs'),
      bindHost: '127.0.0.1',
      portStart: 28100,
      allowAnyCommand: false,
    });
    const runner = prepareLaunch(
      setup.profile.variant,
      launchContext(
        {
          bindHost: '127.0.0.1',
          runtime: setup.profile.engine.runtime,
          sim: { gpu: simGpuFor(setup.profile), gpus: setup.profile.host.gpuCount, speed: setup.spec.speed, seed: 0 },
        },
        { port: setup.port, runDir: join(tmpdir(), 'servelab-replay-logs', setup.profile.variant.id) },
      ),
    );
    expect(setup.spec.argv).toContain('--load-time');
    // The runner's context as executeReplay builds it (runner.ts -> server-start.ts -> launch.ts).
    expect(setup.display).toBe(runner.display);
  });
});
