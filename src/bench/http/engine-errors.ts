// Request errors that are an engine's own decision, named as such in the request's error text,
// so a failed request says whose rule failed it. Each text is quoted from the engine with its
// source; the explanation says why the engine refuses.
export interface EngineRequestError {
  engine: string;
  text: string;
  why: string;
  source: string;
}

export const ENGINE_REQUEST_ERRORS: readonly EngineRequestError[] = [
  {
    engine: 'llama.cpp',
    text: 'The model produced output that does not match the expected Content-only format',
    why: "llama.cpp's output parser aborted the completion; its log says `unparsed Content-only output`, for text that ends inside a UTF-8 character or holds special-token text",
    source: 'llama-server 0.4.0-dev (80fb11a) common/chat.cpp, captured from the binary; unslothai/llama.cpp#202',
  },
];

/** The server's message, with whose rule it is when an engine's own text is known. */
export function nameEngineError(message: string): string {
  const hit = ENGINE_REQUEST_ERRORS.find((e) => message.includes(e.text));
  return hit ? `${message} (${hit.engine}: ${hit.why})` : message;
}
