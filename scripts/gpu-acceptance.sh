#!/usr/bin/env bash
# llama.cpp on a real NVIDIA GPU, end to end, in one command of at most 10 minutes:
#   1. builds llama.cpp with CUDA for this host's GPUs (`servelab engines build llamacpp`), or
#      reuses that build;
#   2. writes a random-weight GGUF of a 7-8B shape (llama, hidden 4096, 32 layers, F16: 6.9 B
#      weights, 13.7 GB), or reuses it; both run side by side;
#   3. runs a short `--auto --engines llamacpp` session: the engine stage (llama-server's defaults,
#      -ngl auto with -fit on) and the offload stage (-ngl all with -fit off, ...);
#   4. prints the host servelab detected, each variant's figures, the GPU memory it held, and what
#      was left running afterwards (nothing, or the script fails).
# Without an NVIDIA GPU it says so in one line and exits 0. Its output from a GPU host belongs in
# scripts/gpu-acceptance.log beside it.
#   bash scripts/gpu-acceptance.sh [WORK_DIR]    (default $XDG_CACHE_HOME/servelab/gpu-acceptance)
set -uo pipefail
cd "$(dirname "$0")/.."

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  echo "gpu-acceptance: no NVIDIA GPU on this host (nvidia-smi lists none): nothing to accept here"
  exit 0
fi

LIMIT_S=${GPU_ACCEPTANCE_LIMIT_S:-600}
started=$(date +%s)
left() { echo $((LIMIT_S - ($(date +%s) - started))); }
say() { echo "gpu-acceptance: [$(($(date +%s) - started)) s] $*"; }
WORK=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/servelab/gpu-acceptance}
mkdir -p "$WORK"
GGUF="$WORK/llama-4096x32-f16.gguf"
SERVELAB=(node bin/servelab.js)

say "GPUs: $(nvidia-smi --query-gpu=name,memory.total,compute_cap --format=csv,noheader | paste -sd';')"
say "building llama.cpp with CUDA (or reusing the build); log: $WORK/build.log"
"${SERVELAB[@]}" engines build llamacpp >"$WORK/build.out" 2>"$WORK/build.log" &
build_pid=$!
if [ -s "$GGUF" ]; then
  say "reusing $GGUF"
  gguf_pid=
else
  say "writing $GGUF (13.7 GB of random F16 weights)"
  "${SERVELAB[@]}" random-gguf --out "$GGUF.part" --arch llama --hidden 4096 --layers 32 >"$WORK/gguf.log" 2>&1 &&
    mv "$GGUF.part" "$GGUF" &
  gguf_pid=$!
fi
wait "$build_pid" || {
  say "the build failed:"
  tail -5 "$WORK/build.log"
  exit 1
}
SERVER=$(tail -1 "$WORK/build.out")
grep -E 'reusing|built for|backend' "$WORK/build.log" | sed 's/^/  /'
if [ -n "$gguf_pid" ]; then
  wait "$gguf_pid" || {
    say "writing the GGUF failed:"
    tail -5 "$WORK/gguf.log"
    exit 1
  }
fi
say "GGUF ready, $(($(stat -c %s "$GGUF") / 1024 / 1024)) MiB"

idle=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | awk '{s += $1} END {print s + 0}')
budget=$(($(left) - 20))
if [ "$budget" -lt 120 ]; then
  say "only $budget s left of $LIMIT_S for the session: run again (the build and the GGUF are kept)"
  exit 1
fi
say "session: --auto --engines llamacpp, stages engine and offload, $budget s at most (GPU memory held before it: $idle MiB)"
RUN="$WORK/run-$(date +%Y%m%d-%H%M%S)"
timeout --signal=INT --kill-after=15 "$budget" "${SERVELAB[@]}" --auto --engines llamacpp --model "$GGUF" \
  --llama-server "$SERVER" --stages engine,offload --scenario random:512/128 --num-prompts 32 --warmup 2 \
  --validation none --ready-timeout 240 --run-dir "$RUN" --out "$WORK" --json >"$WORK/events.jsonl" 2>"$WORK/session.log"
rc=$?
say "session exit code: $rc (its log: $WORK/session.log)"
npx tsx scripts/gpu-acceptance-report.ts "$WORK/events.jsonl" "$SERVER" "$idle"

sleep 2
left_procs=$(pgrep -a -x llama-server || true)
left_gpu=$(nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader 2>/dev/null || true)
echo "left running afterwards: ${left_procs:-no llama-server}; GPU compute processes: ${left_gpu:-none}"
say "done in $(($(date +%s) - started)) s"
[ "$rc" -eq 0 ] && [ -z "$left_procs" ] && [ -z "$left_gpu" ]
