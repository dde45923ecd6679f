// Secrets never reach a profile: a profile is a file people commit, share and paste into issues.
// Secret-looking env entries are dropped (not masked: a masked key would be replayed as a bogus
// value), and secret-bearing argv flag values are replaced by a marker.

/** Env keys whose values are credentials. */
// Whole segments of the key (split on _ or -), so TOKENIZERS_PARALLELISM or MAX_TOKENS stay.
const SECRET_KEY =
  /(^|[_-])(API[_-]?KEYS?|APIKEY|TOKEN|ACCESS[_-]?TOKEN|SECRET|SECRET[_-]?KEY|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|AUTH|PRIVATE[_-]?KEY|ACCESS[_-]?KEY|SESSION[_-]?KEY|COOKIE)($|[_-])|SECRET|PASSWORD/i;

/** Values that are credentials whatever their key (Hugging Face, OpenAI, GitHub, AWS, Slack, JWT). */
const SECRET_VALUE =
  /^(hf_[A-Za-z0-9]{20,}|sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|AKIA[0-9A-Z]{16}|xox[abpr]-[\w-]{10,}|eyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]+)$/;

/** argv flags whose next value is a credential (vLLM/SGLang --api-key, HF token flags). */
const SECRET_FLAGS = new Set(['--api-key', '--hf-token', '--token', '--admin-api-key', '--password']);

export const REDACTED = '<redacted>';

export function isSecretEnvKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

export function isSecretValue(value: string): boolean {
  return SECRET_VALUE.test(value.trim());
}

/** Env without secret-looking entries; `removed` names the keys dropped (never their values). */
export function redactEnv(env: Record<string, string>): { env: Record<string, string>; removed: string[] } {
  const out: Record<string, string> = {};
  const removed: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    if (isSecretEnvKey(key) || isSecretValue(value)) removed.push(key);
    else out[key] = value;
  }
  return { env: out, removed };
}

/** argv with credential values replaced by REDACTED (`--api-key X` and `--api-key=X` forms). */
export function redactArgv(argv: readonly string[]): { argv: string[]; redacted: number } {
  const out: string[] = [];
  let redacted = 0;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0 && SECRET_FLAGS.has(a.slice(0, eq))) {
      out.push(`${a.slice(0, eq)}=${REDACTED}`);
      redacted++;
    } else if (SECRET_FLAGS.has(a) && i + 1 < argv.length) {
      out.push(a, REDACTED);
      i++;
      redacted++;
    } else if (isSecretValue(a)) {
      out.push(REDACTED);
      redacted++;
    } else {
      out.push(a);
    }
  }
  return { argv: out, redacted };
}
