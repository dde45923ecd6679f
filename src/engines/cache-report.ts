// Where any engine reports cached prompt tokens: the union of the adapters' cacheReport fields,
// for a client that does not know which engine answers (`servelab bench` against a URL). The
// OpenAI usage field comes first; engines that report it agree with their own fields.
import { ADAPTERS } from './index.js';

export function anyEngineCacheFields(): string[] {
  const out = ['usage.prompt_tokens_details.cached_tokens'];
  for (const a of Object.values(ADAPTERS)) for (const f of a.cacheReport?.fields ?? []) if (!out.includes(f)) out.push(f);
  return out;
}
