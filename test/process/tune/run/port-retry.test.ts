// A port taken by someone else after servelab picked it: the launch is classified `port-in-use`
// and the variant is launched again on another port, with a warning, and measured.
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TuneEvent } from '../../../../src/core/events.js';
import { simulatedHost } from '../../../../src/host/gpus.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { makeVariant } from '../../../../src/tune/plan/variant-ids.js';
import { runVariant } from '../../../../src/tune/run/runner.js';
import { parseScenario } from '../../../../src/tune/config/scenarios.js';
import { survivors } from '../../../helpers/e2e/cli.js';
import { testPort } from '../../../helpers/ports.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-portretry-'));
const blockers: net.Server[] = [];
const ports: number[] = [];
afterAll(() => {
  for (const b of blockers) b.close();
  for (const pid of survivors(ports)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('port lost between the choice and the launch', () => {
  it('is retried on another port', async () => {
    const { config } = parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--port', String(testPort())]);
    const events: TuneEvent[] = [];
    const r = await runVariant(
      makeVariant('vllm', 'Qwen/Qwen3-14B', {}, config!),
      parseScenario('random:100/10', { scale: 1, numPrompts: 4 }),
      {
        config: config!,
        host: simulatedHost('H100', 1),
        logsDir: join(dir, 'logs'),
        stage: 'engine',
        emit: (e) => {
          events.push(e);
          if (e.type === 'variant-launching') {
            ports.push(e.port);
            // Someone else binds the chosen port right now (listen on an IP literal binds synchronously).
            if (ports.length === 1) blockers.push(net.createServer().listen(e.port, '127.0.0.1'));
          }
        },
      },
    );
    expect(ports).toHaveLength(2);
    expect(ports[1]).not.toBe(ports[0]);
    expect(events.find((e) => e.type === 'warning')).toMatchObject({ message: expect.stringMatching(/in use.*trying another port/) });
    expect(r.status).toBe('ok');
    expect(survivors(ports)).toEqual([]);
  });
});
