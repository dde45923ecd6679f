// `servelab --auto --help`. Its own module with light imports (stage names, defaults, GPU names),
// so src/cli.tsx prints it without loading the tuning core or opening the settings store.
import { gpuNames } from '../model/gpus.js';
import { TUNE_PORT } from '../host/ports.js';
import {
  DEFAULT_READY_TIMEOUT_S,
  DEFAULT_SIM_READY_TIMEOUT_S,
  DEFAULT_SIM_SPEED,
  GPU_STAGES,
  LLAMACPP_STAGES,
} from '../tune/config/config.js';

export const AUTO_USAGE = `Usage: servelab --auto --model MODEL [options]

Tunes headless: plans the stages, launches and benchmarks each variant, keeps the winner stage
by stage, validates it against the baseline, and saves a profile and a report.

What to tune
  --model ID              model (HF id or local path, or FILE.gguf for llama.cpp); required
  --fp8-model ID          a pre-quantized FP8 checkpoint to try (found for known models)
  --engines LIST          engines to try, in order (default vllm,sglang,trtllm; llamacpp with a GGUF)
  --gguf FILE             a GGUF file for llama.cpp (repeatable: the quantization stage compares
                          them; one F16 file alone: llama-quantize makes Q8_0 and Q4_0 in the run folder)
  --draft-model FILE      a draft GGUF for llama.cpp's speculative stage
  --llama-server PATH     the llama-server to launch (default PATH, then servelab's build:
                          servelab engines build llamacpp)
  --stages LIST           stages in order (default ${GPU_STAGES.join(',')};
                          llama.cpp: ${LLAMACPP_STAGES.join(',')}); engine always runs first;
                          cache joins them when the workload resends what it sent (prefix reuse)
  --drop PATTERN          drop a candidate by variant id (globs with *) or change (e.g. attn=triton); repeatable
  --extra-args 'ARGS'     extra engine argv for every variant, or 'ENGINE:ARGS' for one engine; repeatable
  --engine-env NAME=V     an environment variable every variant starts with, or ENGINE:NAME=V for one engine; repeatable
  --baseline ID|ENGINE    baseline for the before/after table (default the engine stage's vLLM defaults)

Workload
  --scenario NAME         tuning workload: sharegpt, sharegpt-like, short, medium, long, very-long,
                          random:IN/OUT (default sharegpt with --dataset-path, else sharegpt-like),
                          prefix:PREFIX/SUFFIX/PREFIXES/OUT (shared prefixes, vLLM's prefix_repetition),
                          trace:FILE.jsonl (a Mooncake trace at its recorded times), or
                          multi-turn:USERS/TURNS[/SYSTEM/IN/OUT] (USERS conversations at once, each
                          TURNS turns on a shared SYSTEM-token prompt, IN-token messages, OUT-token
                          replies; default 1000/128/64; no think time; 2 conversations per user)
  --dataset-path FILE     ShareGPT JSON (ShareGPT_V3_unfiltered_cleaned_split.json)
  --num-prompts N         prompts of the tuning workload (default 1000 x scale; multi-turn: conversations)
  --max-concurrency N     cap requests in flight for the tuning workload (default: all at once;
                          multi-turn names its users in the scenario instead)
  --scale F               scale every scenario's prompt count, e.g. 0.2 for a quick run (default 1)
  --validation LIST|none  validation scenarios (default the studies' five; 'default' names them in a
                          list, e.g. default,multi-turn:8/6)

Decision
  --objective O           total (default) | output | request | goodput | frontier (with --slo:
                          sweep the finalists and choose the variant and load meeting the SLO
                          with the most output tok/s/GPU; the stages rank by output tok/s)
  --slo SPEC              e.g. "ttft:p99<2000,tpot:mean<100,e2el:p99<30000" (ms)
  --sweep KIND:LEVELS     after the stages, sweep the finalists' load: concurrency:1,8,32,128 or
                          rate:1,2,4,inf (default with frontier: concurrency:1,4,16,64,256)
  --sweep-all             run every level (default: a point that breaks the SLO ends the variant's sweep)
  --margin PCT            a challenger must win by more than this, or by the host's measured
                          noise when larger (default 2)
  --no-noise-prior        measure the noise from this session's runs alone (default: pooled with
                          this host's last sessions of the same workload, never on --sim)
  --repeats N             run each variant N times and use the median (default 1)
  --repeats-max N         while a stage's leader and its rival cannot be told apart, run both
                          again in reverse order, up to N runs each (default 3; 1: no reruns);
                          still tied: fewer resources, fewer changes from the defaults, higher
                          precision, then the plan order
  --max-failed PCT        a variant whose failed requests exceed PCT% cannot win; its row reads
                          "514/1000 ok: not eligible" (default 1)
  --no-regress            keep the best finalist that loses to the baseline beyond the noise on
                          no validation workload, or say that none exists (default: report a
                          regression, keep the winner)
  --no-early-stop         run every variant's benchmark to the end (default: stop a variant once
                          it cannot beat the stage leader by the margin, after 30% of requests)
  --parallel auto|N|off   variants of one stage at once on disjoint GPUs, each pinned with
                          CUDA_VISIBLE_DEVICES on its own port (default auto: as the GPUs allow,
                          held back when this host's CPU cannot drive every benchmark client)
  --replica auto|off      auto (default): when the model fits on fewer GPUs than the host has,
                          tune one replica at its smallest TP, then compare whole-host layouts
                          (replicas x TP) last; off: every stage uses the whole host (also
                          with --sweep or a host spanning nodes)
  --dummy-weights         tuning launches load random weights of the right shapes (vLLM and
                          SGLang --load-format dummy, TensorRT-LLM load_format: dummy in its
                          YAML; the client sends ignore_eos): no weight load. Never for
                          speculative decoding, MoE models or the validation,
                          which use the real weights (default off; see docs/auto.md)
  --gpu-hour-price USD    price of one GPU-hour, for $ per million tokens
  --budget GPU-HOURS      plan the session to fit this many host GPU-hours: validation's share is
                          kept back, variants whose calibrated upper bound stays below the leader
                          are not launched, short runs screen a stage where that is cheaper, and
                          launching stops when the budget left cannot pay (docs/budget.md)
  --budget-wall D         the same as a wall-clock budget, e.g. 2h, 90m, 1h30m (x the host's GPUs;
                          with --budget the smaller of the two)
  --tpot excl|inclusive   TPOT in the summary and report: excl (default, vLLM's: the first token
                          left out) or inclusive (AIConfigurator --inclusive-tpot, GuideLLM)
  --quality N             send N greedy prompts (temperature 0, 64 tokens) after the benchmark to
                          each engine's engine-stage run and to every variant that changes
                          numerics (FP8, KV cache dtype, speculative, attention backend); report
                          exact-match rate and mean shared prefix against it (default off)
  --quality-floor X       a variant whose exact-match rate is below X (0..1) cannot win
  --quality-eval FILE     JSONL of {"prompt": ..., "expected": ...}: send its prompts instead,
                          and report exact-match accuracy too
  --capacity RULES        after validation, search the highest concurrency at which every rule
                          holds on the winner's server (e.g. 'ttft:p99<2000,tpot:mean<100'), as
                          'servelab capacity' does: probes, answer, failing probe, goodput in the
                          summary, profile and report (see docs/capacity.md)
  --capacity-by concurrency|rate   search the request rate instead (default concurrency)
  --capacity-resolution N|N%       stop bisecting this close (default 10% of the answer)
  --capacity-max N        highest load probed (default 4096 concurrent, 1024 req/s)

Host
  --sim                   tune on the simulated host (no GPU needed)
  --gpu NAME --gpus N     simulated GPU type and count (default H100 x 1); ${gpuNames().join(', ')}
  --speed S               simulated clock speed-up (default: per launch, the fastest the client
                          can measure without timing error, at most ${DEFAULT_SIM_SPEED})
  --seed N                simulator seed (default 0)
  --engine-version E=V    with --sim: rehearse release V of engine E (e.g. vllm=0.33.0): its flag
                          spellings and start-up lines; repeatable (a real host's are detected)
  --truth FILE            the simulated host runs on these host corrections, unknown to the planner
                          (a truth or calibration file; every sim-serve launch gets --truth FILE)
  --calibration FILE      start the session's host calibration from FILE (servelab calibrate);
                          refused from another GPU, a warning for any other difference
  --fresh-baseline        measure the validation baseline even when an earlier run folder under
                          --runs-dir holds it for the same host, engine release, model and workload
  --runtime native|docker --image IMAGE   how real engines run (default native)
  --runtime slurm         each variant is a Slurm job; servelab benchmarks its head node
  --partition P --account A --time T   sbatch's options for every job
  --slurm-arg=OPT         an extra sbatch option, verbatim (e.g. --slurm-arg=--qos=high); repeatable
  --nodes N               most nodes a variant may span (with --sim: a cluster of N nodes x --gpus)
  --port N                first port for servers (default ${TUNE_PORT})
  --host ADDR             bind address of the servers (default 127.0.0.1)
  --ready-timeout S       seconds to wait for a server (default ${DEFAULT_READY_TIMEOUT_S} real, ${DEFAULT_SIM_READY_TIMEOUT_S} simulated)
  --warmup N              exactly N warm-up requests before a launch's first run (default: a
                          full batch at each run's concurrency, max(4, cap), 128 uncapped)

Output
  --out DIR               profiles go to DIR/profiles (default $XDG_DATA_HOME/servelab, ~/.local/share/servelab)
  --runs-dir DIR          parent of run folders (default <data folder>/runs)
  --run-dir DIR           exact run folder
  --resume DIR            continue an interrupted run with its recorded settings (only --json and
                          --dry-run go with it); finished variants are not re-run
  --dry-run               print the plan with every exact command; launch nothing
  --json                  one JSON event per line on stdout

Exit codes: 0 profile saved, 1 no variant succeeded, 2 bad input, 130 interrupted (128+n for other signals).
Saved settings (servelab config set KEY VALUE) are used when a flag is not given.`;
