// Placeholder until the 'serve' command lands; replaced by its owner.
import { UserError } from '../core/errors.js';

export default async function main(_argv: string[]): Promise<number> {
  throw new UserError("'serve' is not implemented yet", 1);
}
