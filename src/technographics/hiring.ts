// Hiring signals from visits: a company is hiring for a technology when a job post naming it
// appears. The fold counts job posts, not sightings: each post (the evidence hash of its
// excerpt) counts once, on the visit that first saw it, so a post still listed a month later
// is not a second post. A visit that brings new posts naming a product gives one
// `technology.hiring` event with how many posts named it in the last 30 and 180 days (as of
// that visit). Any outcome counts: a post seen on a partial visit was still seen.
// Hiring is a sighting, not a state: there is no baseline and no "stopped hiring" event.
import { eventId, type ProductEvent, type Visit } from './changes.ts';

const DAY_MS = 86_400_000;

/** The two windows of a hiring event's counts. */
const HIRING_WINDOWS_DAYS = [30, 180] as const;

/** Bounds: since the previous visit that covered job posts (the posts appeared in between), else the visit itself; confidence: the detection's in that visit; evidence: the new posts. */
interface HiringEvent extends ProductEvent {
  type: 'technology.hiring';
  /** Distinct posts naming the product first seen in the 30 and 180 days up to the visit. */
  jobPosts30d: number;
  jobPosts180d: number;
}

/** Folds one company's visits (any order) into its hiring events, oldest first. */
export function hiringChanges(companyId: string, visits: Iterable<Visit>): HiringEvent[] {
  const ordered = [...visits].sort((a, b) => a.at.getTime() - b.at.getTime());
  /** Per product: every post's first sighting (ms), and the posts already counted. */
  const firstSeen = new Map<string, number[]>();
  const known = new Set<string>();
  const events: HiringEvent[] = [];
  let lastJobsVisit: Date | null = null;
  for (const visit of ordered) {
    const at = visit.at.getTime();
    for (const [productId, seen] of visit.seen) {
      const fresh = (seen.jobPosts ?? []).filter((hash) => !known.has(`${productId}\u0000${hash}`));
      if (fresh.length === 0) continue;
      for (const hash of fresh) known.add(`${productId}\u0000${hash}`);
      const sightings = firstSeen.get(productId) ?? [];
      for (let i = 0; i < fresh.length; i++) sightings.push(at);
      firstSeen.set(productId, sightings);
      const within = (days: number) => sightings.filter((t) => t > at - days * DAY_MS).length;
      const earliest = lastJobsVisit ?? visit.at;
      events.push({
        id: eventId(companyId, 'technology.hiring', productId, visit.at.toISOString()),
        type: 'technology.hiring',
        companyId,
        productId,
        occurredAt: new Date(Math.round((earliest.getTime() + at) / 2)),
        earliest,
        latest: visit.at,
        detectedAt: visit.at,
        confidence: seen.confidence,
        jobPosts30d: within(HIRING_WINDOWS_DAYS[0]),
        jobPosts180d: within(HIRING_WINDOWS_DAYS[1]),
        evidence: fresh,
      });
    }
    if (visit.kinds.includes('jobs') || [...visit.seen.values()].some((s) => (s.jobPosts ?? []).length > 0)) lastJobsVisit = visit.at;
  }
  return events;
}
