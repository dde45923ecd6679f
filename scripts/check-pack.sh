#!/usr/bin/env bash
# `npm run check:pack`: what a user gets from the registry. Packs this checkout (npm pack runs the
# build), installs the tarball globally into a temporary prefix with an empty HOME and settings
# folder, and runs the installed `servelab`: help, a saved setting, and a short headless tuning
# run on the simulated host (two sim-serve launches, benchmarks on the worker thread). Fails if
# the install holds TypeScript sources, tsx or a TypeScript compiler. Leaves nothing behind.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/servelab-pack-XXXXXX")
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" SERVELAB_CONFIG_DIR="$work/home/config" npm_config_cache="${npm_config_cache:-$(npm config get cache)}"
mkdir -p "$HOME"

tgz=$(npm pack --silent --pack-destination "$work" | tail -1)
echo "packed: $tgz ($(du -k "$work/$tgz" | cut -f1) KiB)"
npm install --global --prefix "$work/prefix" --no-audit --no-fund --prefer-offline "$work/$tgz" >/dev/null
pkg="$work/prefix/lib/node_modules/servelab"
export PATH="$work/prefix/bin:$PATH"

if find "$pkg" \( -name '*.ts' -o -name '*.tsx' -o -path '*/node_modules/tsx' -o -path '*/node_modules/typescript' \) -print -quit | grep -q .; then
  echo "FAIL: the installed package holds TypeScript or tsx:"; find "$pkg" -name '*.ts' -o -name '*.tsx' | head; exit 1
fi
echo "installed: $(command -v servelab) -> $(du -sk "$pkg" | cut -f1) KiB, no TypeScript, no tsx"

servelab --version
servelab --help | head -1
servelab --auto --help | head -1
servelab config set margin 3 >/dev/null && test "$(servelab config get margin)" = 3
servelab --auto --sim --gpu H100 --gpus 1 --model Qwen/Qwen3-14B --scale 0.02 --stages engine \
  --engines vllm,sglang --validation none --out "$work/out" --runs-dir "$work/runs" >"$work/auto.out" 2>"$work/auto.err" \
  || { cat "$work/auto.err"; echo "FAIL: headless run"; exit 1; }
grep -q "^Profile: " "$work/auto.out" || { cat "$work/auto.out"; echo "FAIL: no profile saved"; exit 1; }
grep -q "$pkg/dist/cli.js" "$work/out/profiles/"*.json || { echo "FAIL: sim-serve did not run from the installed build"; exit 1; }
echo "headless sim run from the installed package: ok (sim-serve ran from $pkg/dist/cli.js)"
echo "check-pack: ok"
