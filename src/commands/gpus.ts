// Placeholder until the 'gpus' command lands; replaced by its owner.
import { UserError } from '../core/errors.js';

export default async function main(_argv: string[]): Promise<number> {
  throw new UserError("'gpus' is not implemented yet", 1);
}
