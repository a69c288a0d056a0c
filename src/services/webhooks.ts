// Webhooks: a client's endpoints, and the delivery of events to them.
//
// - Signing follows the Standard Webhooks specification: headers `webhook-id` (the event id:
//   the same on every retry and replay, so a receiver drops duplicates by it),
//   `webhook-timestamp` (seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of
//   "id.timestamp.body">`, one per valid secret, space-separated: during a rotation the
//   previous secret signs too until it expires).
// - Delivery is at least once. Deliveries are written in the transaction that publishes their
//   events, each with its job in the pg-boss queue (same transaction): a crash before the commit
//   loses neither, one after it delivers again. Workers in any number of processes take jobs
//   with SKIP LOCKED; a failed attempt (non-2xx, timeout, refused address) is retried with
//   exponential backoff (WEBHOOK_RETRY_DELAY_SECONDS doubling, WEBHOOK_RETRY_LIMIT times: over
//   a day by default); after the last, the delivery is dead (listed, replayable). A job whose
//   worker died (kill -9) expires and is retried.
// - Each delivery counts once against its client's daily event allowance (the plan's
//   eventsPerDay), when it is first let through; retries and replays do not count again. Past
//   the allowance a delivery is held, not lost: it stays pending and its job starts again
//   later (services/plan-limits.ts, `hold` below).
// - An endpoint that has failed every delivery for WEBHOOK_DISABLE_AFTER_HOURS is disabled
//   until its client enables it again; its pending deliveries are then skipped.
// - Targets are checked as the fetcher's (public addresses only, resolved once and pinned):
//   WEBHOOK_ALLOW_NETWORKS names private blocks allowed (a receiver in your own network).
import { createHmac, randomBytes } from 'node:crypto';
import PgBoss from 'pg-boss';
import { bossDb } from './job-queue.ts';
import type { Db, Queryable, Tx } from '../db/db.ts';
import type { Config } from '../config.ts';
import { nowDate } from '../clock.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../errors.ts';
import { toPage, type Page } from '../schemas/common.ts';
import type { EventRecord } from '../schemas/events.ts';
import type { CreateWebhookInput, ReplayInput, UpdateWebhookInput, WebhookDeliveryRecord, WebhookRecord } from '../schemas/webhooks.ts';
import { DEFAULT_MONITOR_EVENT_TYPES } from '../schemas/monitors.ts';
import { BlockedAddressError, FetchError, makeResolver, requestOnce } from '../detect/collect/index.ts';
import { eventsByIds, type EventRow } from '../store/events.ts';
import { findMonitor } from '../store/monitors.ts';
import { lockClient } from '../store/access.ts';
import {
  countEndpoints,
  deleteEndpointRow,
  deliveryEndpoints,
  disableIfFailingSince,
  fanOut,
  findEndpoint,
  insertEndpoint,
  listDeliveryRows,
  listEndpointRows,
  lockUncounted,
  recordDelivered,
  recordFailure,
  replayDeliveries,
  setSecrets,
  settleAllowance,
  skipDelivery,
  updateEndpointRow,
  type EndpointRow,
  type SigningSecret,
} from '../store/webhooks.ts';
import { toEventRecord } from './events.ts';
import { checkHolding, secondsToNextUtcDay, takeEventsIn } from './plan-limits.ts';

const QUEUE = 'webhook-delivery';
/** Jobs one worker takes at a time; their requests go out together. */
const BATCH = 100;
/** How long a previous secret keeps signing after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 3600_000;
const USER_AGENT = 'Stacklens-Webhooks/1';
/** The longest a delivery held by a spent daily allowance waits before it is looked at again. */
const HOLD_RECHECK_SECONDS = 600;

// Signing -------------------------------------------------------------------------------------

/** A new signing secret: `whsec_` and 32 random bytes in base64. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The `webhook-signature` value: one `v1,<signature>` per secret. */
function signatures(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

/** The secrets that sign now: the current one and any previous one not yet expired. */
function signingSecrets(secrets: readonly SigningSecret[], now: Date): string[] {
  return secrets.filter((s) => s.expiresAt === null || Date.parse(s.expiresAt) > now.getTime()).map((s) => s.secret);
}

// Endpoints -----------------------------------------------------------------------------------

function toRecord(w: EndpointRow): WebhookRecord {
  return {
    id: w.id,
    url: w.url,
    description: w.description,
    monitorId: w.monitorId,
    eventTypes: w.eventTypes,
    enabled: w.enabled,
    disabledReason: w.disabledReason,
    failingSince: w.failingSince?.toISOString() ?? null,
    consecutiveFailures: w.consecutiveFailures,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

async function requireEndpoint(db: Queryable, clientId: string, id: string): Promise<EndpointRow> {
  const w = await findEndpoint(db, clientId, id);
  if (!w) throw new NotFoundError(`webhookId: no webhook '${id}' of this client`);
  return w;
}

async function checkMonitor(db: Db, clientId: string, monitorId: string | null | undefined): Promise<void> {
  if (monitorId && !(await findMonitor(db, clientId, monitorId))) throw new NotFoundError(`monitorId: no monitor '${monitorId}' of this client`);
}

export async function createWebhook(db: Db, clientId: string, input: CreateWebhookInput, config: Config): Promise<WebhookRecord & { secret: string }> {
  await checkMonitor(db, clientId, input.monitorId);
  const id = `whk_${randomBytes(8).toString('hex')}`;
  const secret = newSecret();
  await db.transaction(async (tx) => {
    const plan = await lockClient(tx, clientId);
    if (!plan) throw new NotFoundError(`no client '${clientId}'`);
    const held = await countEndpoints(tx, clientId);
    checkHolding('webhooks', held, {
      planId: plan.planId,
      planMax: plan.maxWebhooks,
      ceiling: config.webhooks.maxPerClient,
      ceilingName: 'MAX_WEBHOOKS_PER_CLIENT',
    });
    await insertEndpoint(
      tx,
      id,
      clientId,
      {
        url: input.url,
        description: input.description ?? null,
        monitorId: input.monitorId ?? null,
        eventTypes: input.eventTypes ?? [...DEFAULT_MONITOR_EVENT_TYPES],
      },
      secret,
    );
  });
  return { ...toRecord(await requireEndpoint(db, clientId, id)), secret };
}

export async function getWebhook(db: Db, clientId: string, id: string): Promise<WebhookRecord> {
  return toRecord(await requireEndpoint(db, clientId, id));
}

export async function listWebhooks(db: Db, clientId: string, input: { page: number; size: number }): Promise<Page<WebhookRecord>> {
  const { total, rows } = await listEndpointRows(db, clientId, input.page * input.size, input.size);
  return toPage(rows.map(toRecord), total, input.size);
}

export async function updateWebhook(db: Db, clientId: string, id: string, input: UpdateWebhookInput): Promise<WebhookRecord> {
  const w = await requireEndpoint(db, clientId, id);
  if (input.monitorId !== undefined) await checkMonitor(db, clientId, input.monitorId);
  await updateEndpointRow(
    db,
    id,
    {
      url: input.url ?? w.url,
      description: input.description === undefined ? w.description : input.description,
      monitorId: input.monitorId === undefined ? w.monitorId : input.monitorId,
      eventTypes: input.eventTypes ?? w.eventTypes,
    },
    input.enabled,
  );
  return getWebhook(db, clientId, id);
}

export async function deleteWebhook(db: Db, clientId: string, id: string): Promise<{ id: string; deleted: true }> {
  if (!(await deleteEndpointRow(db, clientId, id))) throw new NotFoundError(`webhookId: no webhook '${id}' of this client`);
  return { id, deleted: true };
}

/** A new signing secret; the previous one keeps signing for a day (both signatures are sent), then stops. */
export async function rotateWebhookSecret(db: Db, clientId: string, id: string): Promise<{ id: string; secret: string; previousSecretExpiresAt: string }> {
  const w = await requireEndpoint(db, clientId, id);
  const now = nowDate();
  const expiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
  const secret = newSecret();
  const current = w.secrets.find((s) => s.expiresAt === null);
  await setSecrets(db, id, [{ secret, expiresAt: null }, ...(current ? [{ secret: current.secret, expiresAt }] : [])]);
  return { id, secret, previousSecretExpiresAt: expiresAt };
}

export async function listWebhookDeliveries(
  db: Db,
  clientId: string,
  id: string,
  input: { status?: string | undefined; page: number; size: number },
): Promise<Page<WebhookDeliveryRecord>> {
  await requireEndpoint(db, clientId, id);
  const { total, rows } = await listDeliveryRows(db, id, input.status, input.page * input.size, input.size);
  return toPage(
    rows.map((d) => ({
      eventId: d.eventId,
      eventType: d.eventType,
      status: d.status as WebhookDeliveryRecord['status'],
      attempts: d.attempts,
      lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
      lastStatus: d.lastStatus,
      lastError: d.lastError,
      deliveredAt: d.deliveredAt?.toISOString() ?? null,
      createdAt: d.createdAt.toISOString(),
    })),
    total,
    input.size,
  );
}

// Delivery ------------------------------------------------------------------------------------

interface DeliveryJob {
  endpointId: string;
  eventId: string;
}

type AttemptOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/**
 * The delivery queue and its worker: created by the app, started once the database is ready.
 * Fan-out (`enqueueNumbered`) runs inside the publisher's transaction.
 */
export class WebhookDelivery {
  private readonly boss: PgBoss;
  private started: Promise<void> | undefined;
  private workerId: string | undefined;
  private readonly resolver = makeResolver();

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly onError: (err: unknown) => void,
    /** Tests: a shorter expiry of a job whose worker died, faster polling, a shorter hold of deliveries past the allowance. */
    private readonly tuning: { expireInSeconds?: number; pollingIntervalSeconds?: number; maintenanceIntervalSeconds?: number; holdSeconds?: number } = {},
  ) {
    this.boss = new PgBoss({
      db: bossDb(db),
      schema: config.jobsSchema,
      schedule: false,
      ...(tuning.maintenanceIntervalSeconds ? { maintenanceIntervalSeconds: tuning.maintenanceIntervalSeconds } : {}),
    } as PgBoss.ConstructorOptions);
    this.boss.on('error', (err) => this.onError(err));
  }

  /** Creates the queue's schema (first time) and starts delivering; idempotent. */
  start(): Promise<void> {
    this.started ??= (async () => {
      await this.boss.start();
      const { retryLimit, retryDelaySeconds, timeoutMs } = this.config.webhooks;
      const queue = { retryLimit, retryDelay: retryDelaySeconds, retryBackoff: true, expireInSeconds: this.expireInSeconds(timeoutMs) };
      await this.boss.createQueue(QUEUE, { name: QUEUE, ...queue });
      await this.boss.updateQueue(QUEUE, { name: QUEUE, ...queue });
      this.workerId = await this.boss.work<DeliveryJob>(
        QUEUE,
        { batchSize: BATCH, pollingIntervalSeconds: this.tuning.pollingIntervalSeconds ?? 1, includeMetadata: true },
        async (jobs) => {
          await this.attempt(jobs);
          // A full batch: more are likely waiting, so the worker fetches again at once instead of after its polling interval.
          if (jobs.length === BATCH && this.workerId) this.boss.notifyWorker(this.workerId);
        },
      );
    })();
    this.started.catch(() => (this.started = undefined));
    return this.started;
  }

  get isStarted(): boolean {
    return this.started !== undefined;
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    await this.started.catch(() => {});
    await this.boss.stop({ graceful: true, wait: true, close: false } as PgBoss.StopOptions);
  }

  private expireInSeconds(timeoutMs: number): number {
    return this.tuning.expireInSeconds ?? Math.ceil(timeoutMs / 1000) * 3 + 30;
  }

  /** The deliveries of newly numbered events, with their jobs, in the publisher's transaction. */
  async enqueueNumbered(tx: Tx, fromSeq: number, toSeq: number): Promise<number> {
    if (!this.started) return 0;
    await this.started;
    const deliveries = await fanOut(tx, fromSeq, toSeq);
    await this.enqueue(tx, deliveries);
    return deliveries.length;
  }

  /** Replays deliveries (by event ids or a time range of detection) to one endpoint; returns how many were queued. */
  async replay(clientId: string, webhookId: string, input: ReplayInput): Promise<{ queued: number }> {
    const w = await requireEndpoint(this.db, clientId, webhookId);
    if (!w.enabled) throw new ConflictError(`webhook ${webhookId} is disabled (${w.disabledReason ?? 'disabled'}); enable it first`);
    const byRange = input.from !== undefined && input.to !== undefined;
    if ((input.eventIds !== undefined) === (input.from !== undefined || input.to !== undefined) || (input.eventIds === undefined && !byRange))
      throw new BadRequestError('body: give eventIds, or from and to (a time range of detectedAt), not both');
    const which: { eventIds: readonly string[] } | { from: Date; to: Date } = input.eventIds
      ? { eventIds: input.eventIds }
      : { from: new Date(input.from!), to: new Date(input.to!) };
    if ('from' in which && which.from >= which.to) throw new BadRequestError('to: must be after from');
    await this.start();
    const queued = await this.db.transaction(async (tx) => {
      const deliveries = await replayDeliveries(tx, webhookId, which);
      await this.enqueue(tx, deliveries);
      return deliveries.length;
    });
    return { queued };
  }

  private async enqueue(tx: Tx, deliveries: readonly DeliveryJob[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.boss.insert(
      deliveries.map((d) => ({ name: QUEUE, data: d })),
      { db: bossDb(tx) },
    );
  }

  /**
   * One batch of jobs: their endpoints and events read at once, the requests sent together,
   * the successes recorded in one statement; each failure is recorded and handed back to the
   * queue (retried with backoff, or dead after the last retry). The jobs the handler does not
   * fail are completed by the queue when it returns.
   */
  private async attempt(jobs: readonly PgBoss.JobWithMetadata<DeliveryJob>[]): Promise<void> {
    let endpoints: Map<string, EndpointRow>;
    let events: Map<string, EventRow>;
    let held: Set<PgBoss.JobWithMetadata<DeliveryJob>>;
    try {
      endpoints = await deliveryEndpoints(
        this.db,
        jobs.map((j) => j.data),
      );
      events = await eventsByIds(this.db, [...new Set(jobs.map((j) => j.data.eventId))]);
      held = await this.admit(
        jobs.filter((j) => endpoints.get(j.data.endpointId)?.enabled && events.has(j.data.eventId)),
        endpoints,
      );
    } catch (err) {
      // The database was out of reach: the jobs are retried by the queue.
      await this.failBack(jobs, err);
      return;
    }
    if (held.size > 0) await this.hold([...held]);
    const delivered: { endpointId: string; eventId: string; status: number }[] = [];
    await Promise.all(
      jobs
        .filter((job) => !held.has(job))
        .map(async (job) => {
          const { endpointId, eventId } = job.data;
          const endpoint = endpoints.get(endpointId);
          const event = events.get(eventId);
          try {
            if (!endpoint || !event || !endpoint.enabled) {
              if (endpoint) await skipDelivery(this.db, endpointId, eventId);
              return; // nothing to send any more: the job completes
            }
            const outcome = await this.send(endpoint, toEventRecord(event));
            if (outcome.ok) {
              delivered.push({ endpointId, eventId, status: outcome.status });
              return;
            }
            await recordFailure(this.db, endpointId, eventId, { ...outcome, final: job.retryCount >= job.retryLimit });
            const disableBefore = new Date(nowDate().getTime() - this.config.webhooks.disableAfterHours * 3600_000);
            await disableIfFailingSince(this.db, endpointId, disableBefore, `every delivery failed for ${this.config.webhooks.disableAfterHours} hours`);
            await this.boss.fail(QUEUE, job.id, { error: outcome.error });
          } catch (err) {
            this.onError(err);
            await this.boss.fail(QUEUE, job.id, { error: String(err) }).catch(() => {});
          }
        }),
    );
    try {
      await recordDelivered(this.db, delivered);
    } catch (err) {
      // Delivered, but not recorded: the queue sends them again (at least once).
      this.onError(err);
      await this.boss
        .fail(
          QUEUE,
          jobs.filter((j) => delivered.some((d) => d.eventId === j.data.eventId && d.endpointId === j.data.endpointId)).map((j) => j.id),
        )
        .catch(() => {});
    }
  }

  /**
   * Counts the batch's first attempts against their clients' daily event allowances (retries
   * and replays were counted when first let through) and returns the jobs that must wait: each
   * client's spend and the marks on its deliveries are one transaction, so a delivery counts
   * once however many workers hold it.
   */
  private async admit(
    jobs: readonly PgBoss.JobWithMetadata<DeliveryJob>[],
    endpoints: Map<string, EndpointRow>,
  ): Promise<Set<PgBoss.JobWithMetadata<DeliveryJob>>> {
    const byClient = new Map<string, PgBoss.JobWithMetadata<DeliveryJob>[]>();
    for (const job of jobs) {
      const clientId = endpoints.get(job.data.endpointId)!.clientId;
      byClient.set(clientId, [...(byClient.get(clientId) ?? []), job]);
    }
    const held = new Set<PgBoss.JobWithMetadata<DeliveryJob>>();
    for (const [clientId, own] of byClient) {
      const waiting = await this.db.transaction(async (tx) => {
        const uncounted = await lockUncounted(
          tx,
          own.map((j) => j.data),
        );
        if (uncounted.length === 0) return [];
        const a = await takeEventsIn(tx, clientId, uncounted.length);
        const wait = uncounted.slice(a.granted);
        const reason = `held: the client's daily event allowance is spent (${a.used} of ${a.limit}, plan '${a.planId ?? '?'}'); sent when it allows more`;
        await settleAllowance(tx, uncounted.slice(0, a.granted), wait, reason);
        return wait;
      });
      const key = (d: DeliveryJob) => `${d.endpointId}\u0000${d.eventId}`;
      const waitingKeys = new Set(waiting.map(key));
      for (const j of own) if (waitingKeys.has(key(j.data))) held.add(j);
    }
    return held;
  }

  /**
   * Holds deliveries whose client has no events left today: each job completes and a new one
   * for the same delivery starts after the next UTC day begins, or sooner (HOLD_RECHECK_SECONDS)
   * so that a plan given more events applies within minutes. Never lost: the delivery stays
   * pending, and a failure here hands the jobs back to the queue's retries.
   */
  private async hold(jobs: readonly PgBoss.JobWithMetadata<DeliveryJob>[]): Promise<void> {
    const seconds = this.tuning.holdSeconds ?? Math.min(secondsToNextUtcDay(nowDate()), HOLD_RECHECK_SECONDS);
    try {
      await this.boss.insert(jobs.map((j) => ({ name: QUEUE, data: j.data, startAfter: String(seconds) })));
    } catch (err) {
      await this.failBack(jobs, err);
    }
  }

  /** Reports the error and gives the jobs back to the queue, which retries them (at-least-once holds). */
  private async failBack(jobs: readonly PgBoss.JobWithMetadata<DeliveryJob>[], err: unknown): Promise<void> {
    this.onError(err);
    await this.boss
      .fail(
        QUEUE,
        jobs.map((j) => j.id),
      )
      .catch(() => {});
  }

  /** One signed POST; never throws: the outcome says how it went. */
  async send(endpoint: EndpointRow, event: EventRecord): Promise<AttemptOutcome> {
    const timestamp = Math.floor(nowDate().getTime() / 1000);
    const body = JSON.stringify({ type: event.type, timestamp: new Date(timestamp * 1000).toISOString(), data: event });
    const secrets = signingSecrets(endpoint.secrets, nowDate());
    try {
      const res = await requestOnce(new URL(endpoint.url), {
        resolver: this.resolver,
        policy: { allowNetworks: this.config.webhooks.allowNetworks, ports: 'any' },
        timeoutMs: this.config.webhooks.timeoutMs,
        maxBytes: 4096,
        userAgent: USER_AGENT,
        accept: '*/*',
        post: {
          body: Buffer.from(body),
          headers: {
            'content-type': 'application/json',
            'webhook-id': event.id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signatures(secrets, event.id, timestamp, body),
          },
        },
      });
      if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
      return { ok: false, status: res.status, error: `HTTP ${res.status}` };
    } catch (err) {
      const reason =
        err instanceof BlockedAddressError ? `refused target: ${err.message}` : err instanceof FetchError ? `${err.reason}: ${err.message}` : String(err);
      return { ok: false, status: null, error: reason };
    }
  }
}
