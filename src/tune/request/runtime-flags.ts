// --runtime native|docker|slurm and the flags that belong to each runtime, checked together so a
// Slurm or docker option without its runtime is one line that says what to add.
import { UserError } from '../../core/errors.js';
import type { SessionConfig } from '../config/config.js';
import { optionalNumberArg, type NumberRange } from '../../core/number-arg.js';

const num = (flag: string, text: string | undefined, rule?: NumberRange) => optionalNumberArg(`--${flag}`, text, rule);

const SLURM_ONLY = ['partition', 'account', 'time'] as const;

/**
 * --runtime native|docker|slurm and the flags that belong to each. `--nodes N` (slurm only): the
 * most nodes a variant may span; with --sim the simulated cluster of N x --gpus (sim.gpus counts all).
 */
export function parseRuntime(
  str: (k: string) => string | undefined,
  slurmArgs: string[],
  sim?: SessionConfig['sim'],
): SessionConfig['runtime'] {
  const nodes = num('nodes', str('nodes'), { integer: true, min: 1, max: 64 });
  if (nodes !== undefined && str('runtime') !== 'slurm')
    throw new UserError('--nodes needs --runtime slurm (a variant wider than one node runs as a multi-node Slurm job)');
  if (sim && nodes !== undefined && nodes > 1) {
    sim.nodes = nodes;
    sim.gpus *= nodes;
  }
  const runtimeText = str('runtime') ?? 'native';
  if (runtimeText !== 'slurm') {
    const stray = [...SLURM_ONLY.filter((k) => str(k) !== undefined), ...(slurmArgs.length ? ['slurm-arg'] : [])];
    if (stray.length) throw new UserError(`--${stray[0]} is a Slurm option; add --runtime slurm`);
  }
  if (runtimeText !== 'docker' && str('image') !== undefined)
    throw new UserError('--image is the container of --runtime docker; add --runtime docker');
  if (runtimeText === 'native') return { kind: 'native' };
  if (runtimeText === 'docker') {
    if (!str('image')) throw new UserError('--runtime docker needs --image, e.g. --image vllm/vllm-openai:v0.11.0');
    return { kind: 'docker', image: str('image')! };
  }
  if (runtimeText === 'slurm') {
    return {
      kind: 'slurm',
      ...(str('partition') ? { partition: str('partition')! } : {}),
      ...(str('account') ? { account: str('account')! } : {}),
      ...(str('time') ? { time: str('time')! } : {}),
      extra: slurmArgs,
      ...(nodes !== undefined ? { nodes } : {}),
    };
  }
  throw new UserError(`--runtime must be native, docker or slurm, got '${runtimeText}'`);
}
