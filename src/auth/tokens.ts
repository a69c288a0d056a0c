// Access-token verification. Placeholder until the token endpoint lands (issue "Access"):
// every bearer token is refused, so nothing fails open.
import type { Config } from '../config.ts';
import type { Db } from '../store/db.ts';
import { UnauthorizedError } from '../errors.ts';
import type { Principal } from './principal.ts';

export async function verifyAccessToken(_db: Db, _config: Config, _token: string): Promise<Principal> {
  throw new UnauthorizedError('Invalid access token');
}
