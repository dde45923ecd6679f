// Normalize an engine command line so equivalent spellings compare equal: `-tp 8` ==
// `--tensor-parallel-size 8`, `--tp 8` == `--tp-size 8`, `--attention-backend=fa3` ==
// `--attention-backend fa3`, `--model` == `--model-path`. Launch plumbing (host, port, the
// metrics switch, the TRT-LLM YAML path) is dropped: the studies' commands leave it to defaults.

const ALIASES: Record<string, Record<string, string>> = {
  vllm: {
    '-tp': '--tensor-parallel-size',
    '-pp': '--pipeline-parallel-size',
    '-dp': '--data-parallel-size',
    '-q': '--quantization',
    '--model': '<model>',
  },
  sglang: {
    '--tp': '--tensor-parallel-size',
    '--tp-size': '--tensor-parallel-size',
    '--pp-size': '--pipeline-parallel-size',
    '--dp': '--data-parallel-size',
    '--dp-size': '--data-parallel-size',
    '--ep': '--expert-parallel-size',
    '--ep-size': '--expert-parallel-size',
    '--model': '<model>',
    '--model-path': '<model>',
  },
  trtllm: {
    '--tp_size': '--tensor_parallel_size',
    '--pp_size': '--pipeline_parallel_size',
    '--ep_size': '--moe_expert_parallel_size',
    '--free_gpu_memory_fraction': '--kv_cache_free_gpu_memory_fraction',
  },
};

const PLUMBING = new Set(['--host', '--port', '--enable-metrics', '--extra_llm_api_options', '--config']);

export interface NormalCommand {
  engine: 'vllm' | 'sglang' | 'trtllm';
  /** Sorted "flag=value" (or bare "flag") entries, model included as "<model>=...". */
  flags: string[];
}

export function normalizeCommand(command: string | string[]): NormalCommand {
  const argv = typeof command === 'string' ? command.trim().split(/\s+/) : [...command];
  let engine: NormalCommand['engine'];
  let rest: string[];
  if (argv[0] === 'vllm' && argv[1] === 'serve') {
    engine = 'vllm';
    rest = argv.slice(2);
  } else if (/python3?$/.test(argv[0]!) && argv[1] === '-m' && argv[2] === 'sglang.launch_server') {
    engine = 'sglang';
    rest = argv.slice(3);
  } else if (argv[0] === 'trtllm-serve') {
    engine = 'trtllm';
    rest = argv.slice(1);
  } else {
    throw new Error(`not an engine command: ${argv.join(' ')}`);
  }
  const alias = ALIASES[engine]!;
  const flags: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const tok = rest[i]!;
    if (!tok.startsWith('-')) {
      flags.push(`<model>=${tok}`); // positional model (vllm serve, trtllm-serve)
      continue;
    }
    const eq = tok.indexOf('=');
    let name = eq > 0 ? tok.slice(0, eq) : tok;
    let value: string | undefined = eq > 0 ? tok.slice(eq + 1) : undefined;
    if (value === undefined && rest[i + 1] !== undefined && !rest[i + 1]!.startsWith('-')) value = rest[++i];
    name = alias[name] ?? name;
    if (PLUMBING.has(name)) continue;
    flags.push(value === undefined ? name : `${name}=${value}`);
  }
  return { engine, flags: flags.sort() };
}
