// Placeholder until the 'import' command lands; replaced by its owner.
import { UserError } from '../core/errors.js';

export default async function main(_argv: string[]): Promise<number> {
  throw new UserError("'import' is not implemented yet", 1);
}
