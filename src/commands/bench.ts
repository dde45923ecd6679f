// Placeholder until the 'bench' command lands; replaced by its owner.
import { UserError } from '../core/errors.js';

export default async function main(_argv: string[]): Promise<number> {
  throw new UserError("'bench' is not implemented yet", 1);
}
