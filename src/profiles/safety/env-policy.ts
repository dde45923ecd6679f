// Environment variables a profile may not set without the user naming them (--allow-env NAME):
// each one can make a known engine launcher run code the user never saw in the command.
// A profile is data from someone else; its env is applied to the server process (and written
// into exported scripts), so these are refused, with the reason shown.

const DENIED: Record<string, string> = {
  LD_PRELOAD: 'loads a library into every process it starts',
  LD_LIBRARY_PATH: 'changes which shared libraries (CUDA, NCCL, libc) are loaded',
  LD_AUDIT: 'loads an auditing library into every process',
  PATH: 'changes which executable a bare command name runs',
  PYTHONPATH: 'makes Python import modules from other folders first',
  PYTHONSTARTUP: 'runs a Python file at interpreter start',
  PYTHONHOME: 'replaces the Python standard library',
  PYTHONUSERBASE: 'makes Python import from another user site folder',
  PYTHONINSPECT: 'leaves an interactive Python prompt after the server',
  PYTHONBREAKPOINT: 'runs a callable of its choice at breakpoint()',
  NODE_OPTIONS: 'passes --require/--import to every node process (sim-serve)',
  NODE_PATH: 'makes node resolve modules from other folders',
  BASH_ENV: 'runs a file in every non-interactive bash',
  ENV: 'runs a file in every POSIX sh',
  SHELLOPTS: 'changes how shells started by the engine behave',
  PS4: 'runs command substitutions when a shell traces',
  PROMPT_COMMAND: 'runs a command in interactive bash',
  IFS: 'changes how shells split words',
  GCONV_PATH: 'loads glibc conversion modules from another folder',
};

/** Why `key` is refused, or null when a profile may set it. */
export function envDenyReason(key: string): string | null {
  if (DENIED[key]) return DENIED[key]!;
  if (key.startsWith('DYLD_')) return "changes the macOS dynamic loader's libraries";
  return null;
}

/** The refused keys of `env`, with their reasons, less those the user allowed. */
export function refusedEnv(env: Record<string, string>, allowed: readonly string[] = []): { key: string; why: string }[] {
  return Object.keys(env)
    .filter((k) => !allowed.includes(k))
    .flatMap((k) => {
      const why = envDenyReason(k);
      return why ? [{ key: k, why }] : [];
    });
}
