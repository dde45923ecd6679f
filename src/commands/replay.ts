// Placeholder until the 'replay' command lands; replaced by its owner.
import { UserError } from '../core/errors.js';

export default async function main(_argv: string[]): Promise<number> {
  throw new UserError("'replay' is not implemented yet", 1);
}
