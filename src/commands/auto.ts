// Placeholder until the 'auto' command lands; replaced by its owner.
import { UserError } from '../core/errors.js';

export default async function main(_argv: string[]): Promise<number> {
  throw new UserError("'auto' is not implemented yet", 1);
}
