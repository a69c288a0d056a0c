// Whether a Redis server answers at `url` (the Redis-only tests say so and skip when not).
import { Redis } from 'ioredis';

export async function redisAnswers(url: string): Promise<boolean> {
  const r = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => {});
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}
