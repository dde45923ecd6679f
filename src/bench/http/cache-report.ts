// Prompt tokens the server served from its prefix cache, read from a response message
// generically: the client is handed dotted paths (the engine adapters say where each engine
// reports it: src/engines/<engine>/adapter.ts, `cacheReport`) and takes the first present.
// Without any, it reads the OpenAI usage field, `usage.prompt_tokens_details.cached_tokens`.

export const OPENAI_CACHED_TOKENS = 'usage.prompt_tokens_details.cached_tokens';

/** A number at a dotted path of a JSON object, or undefined. */
const SPLIT = new Map<string, string[]>();
function at(json: Record<string, unknown>, path: string): number | undefined {
  let keys = SPLIT.get(path);
  if (!keys) SPLIT.set(path, (keys = path.split('.')));
  let v: unknown = json;
  for (const key of keys) {
    if (!v || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/** The cached-token count of one message: the first of `paths` it carries. */
export function cachedTokensOf(json: Record<string, unknown>, paths: readonly string[] = [OPENAI_CACHED_TOKENS]): number | undefined {
  for (const p of paths) {
    const n = at(json, p);
    if (n !== undefined) return n;
  }
  return undefined;
}
