import type { ManualClock } from "../../stack/cron/clock.ts";
import type { TestStack } from "./stack.ts";

/**
 * Moves a test stack's scheduler clock to `iso` a minute at a time, waiting
 * after each for the runs it started, as a real clock gives a run time to
 * finish before the next minute. (Jumping 45 minutes at once would start a
 * run that is due at 08:40 only after the clock already reads 08:45, when its
 * database work, on another thread, gets its turn.)
 */
export async function advanceClock(stack: TestStack, clock: ManualClock, iso: string) {
  await stack.scheduler.cron.reload();
  const target = Date.parse(iso);
  for (let minute = Math.floor(clock.now() / 60_000) * 60_000 + 60_000; minute < target; minute += 60_000) {
    await clock.set(minute);
    await stack.scheduler.cron.settled();
  }
  await clock.set(target);
  await stack.scheduler.cron.settled();
}
