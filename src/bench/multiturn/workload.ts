// A multi-turn run's conversations from its spec: vLLM's input file when --dataset-path names
// one (vllm-input.ts), else generated from the flags (conversations.ts); token counts with the
// tokenizer the other datasets use.
import { warnApproximate } from '../datasets/datasets.js';
import { resolveTokenCounter, type TokenCounter } from '../datasets/tokenizer.js';
import { flagShape, generateConversations, type MultiTurnWorkload } from './conversations.js';
import type { MultiTurnSpec } from './spec.js';
import { readVllmInputFile, vllmConversations } from './vllm-input.js';
import path from 'node:path';

export async function loadMultiTurn(
  spec: MultiTurnSpec,
  tokenizer: string | undefined,
  model: string | undefined,
): Promise<MultiTurnWorkload & { counter: TokenCounter }> {
  const data = spec.path ? readVllmInputFile(spec.path) : undefined;
  const counter = await resolveTokenCounter(tokenizer, model);
  if (counter.mode === 'approximate') warnApproximate(tokenizer ?? model);
  const conversations = spec.path
    ? vllmConversations(data, spec.path, spec, counter)
    : generateConversations(flagShape(spec), spec.thinkTimeS, spec.seed, counter);
  return {
    conversations,
    tokenCounts: counter.mode,
    ...(counter.path ? { tokenizerPath: counter.path } : {}),
    source: spec.path ? path.basename(spec.path) : 'generated',
    counter,
  };
}
