// A variant's environment as a knob: how tables and labels say it, and how it joins the
// environment a launch already has. Its own file so that the variant contract, the adapters and
// the views share one spelling.

/** `NAME=value` words for a variant's environment, in name order (so two spellings of one env read alike). */
export function envKnobParts(env: Readonly<Record<string, string>> | undefined): string[] {
  if (!env) return [];
  return Object.keys(env)
    .sort()
    .map((k) => `${k}=${env[k]}`);
}

/**
 * The environment a launch gets: the variant's own variables under the ones servelab must set
 * (device pinning), so a knob never moves a server off the GPUs it was given.
 */
export function withEnvKnob(env: Readonly<Record<string, string>> | undefined, own: Record<string, string>): Record<string, string> {
  return { ...(env ?? {}), ...own };
}
