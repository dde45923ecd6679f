// The bytes of a simulated completion, shaped like vLLM's: SSE chunks (role chunk, content chunks
// with the finish on the last, usage chunk, [DONE]) and the non-streaming body.
export type CompletionKind = 'chat' | 'completion';

export interface Usage {
  prompt_tokens: number;
  total_tokens: number;
  completion_tokens: number;
  /** Prompt tokens served from the prefix cache, where the imitated engine reports them (imitation/cache-report.ts). */
  prompt_tokens_details?: { cached_tokens: number };
}

export interface CompletionFormat {
  /** The chat role chunk (vLLM sends it with the first output, not on arrival). */
  role(): string;
  /** One step's text, with the finish reason on the last. */
  step(text: string, finish: string | null): string;
  /** The usage chunk (stream_options.include_usage) and the end of the stream. */
  end(usage: Usage | undefined): string;
  /** The whole non-streaming response body. */
  body(text: string, finish: string, usage: Usage): unknown;
}

export function completionFormat(kind: CompletionKind, id: string, created: number, model: string): CompletionFormat {
  const object = kind === 'chat' ? 'chat.completion.chunk' : 'text_completion';
  // Chunks are built from fixed JSON halves around the step's text: one cheap string per stream
  // per step, so a thousand streams stay far from the event loop's budget.
  const head = JSON.stringify({ id, object, created, model }).slice(0, -1);
  const chatPre = `data: ${head},"choices":[{"index":0,"delta":{"content":`;
  const textPre = `data: ${head},"choices":[{"index":0,"text":`;
  return {
    role: () => `data: ${head},"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
    step(text, finish) {
      if (kind === 'chat') {
        if (!finish) return `${chatPre}${JSON.stringify(text)}},"logprobs":null,"finish_reason":null}]}\n\n`;
        return `${chatPre}${JSON.stringify(text)}},"logprobs":null,"finish_reason":"${finish}","stop_reason":null}]}\n\n`;
      }
      return `${textPre}${JSON.stringify(text)},"logprobs":null,"finish_reason":${finish ? `"${finish}"` : 'null'},"stop_reason":null}],"usage":null}\n\n`;
    },
    end: (usage) => (usage ? `data: ${JSON.stringify({ id, object, created, model, choices: [], usage })}\n\n` : '') + 'data: [DONE]\n\n',
    body(text, finish, usage) {
      const choice =
        kind === 'chat'
          ? {
              index: 0,
              message: { role: 'assistant', content: text, tool_calls: [] },
              logprobs: null,
              finish_reason: finish,
              stop_reason: null,
            }
          : { index: 0, text, logprobs: null, finish_reason: finish, stop_reason: null };
      return { id, object: kind === 'chat' ? 'chat.completion' : 'text_completion', created, model, choices: [choice], usage };
    },
  };
}
