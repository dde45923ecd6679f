// Placeholder until the 'tui' command lands; replaced by its owner.
import { UserError } from '../core/errors.js';

export default async function main(_argv: string[]): Promise<number> {
  throw new UserError("'tui' is not implemented yet", 1);
}
