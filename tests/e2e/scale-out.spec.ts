import { expect, test } from "@playwright/test";
import { newSessionSecret, startApp, startBackend, startNginx, type Proc } from "../support/app-cluster";
import { createPeople, readWorkload, refreshTally, runLoad, signIn } from "../support/load";

/**
 * Two instances of the built app (server.mjs) behind a real nginx,
 * round-robin, no sticky sessions, sharing only SESSION_SECRET. Ten people
 * browse, move and comment with two connections each, as fast as answers
 * come, for 10 s and then until every one of them has been through all six
 * steps at least once (a busy machine makes the test slower, not failed),
 * with 30-s access tokens (inside auth-js's 90-s refresh margin, so every
 * request refreshes and rotates the session): a person's parallel requests
 * reach different instances with the same expiring session. Nobody may be
 * signed out, nothing may fail. (`npm run bench:load` is the 60-s, 50-person
 * version with figures.)
 */
test("two app instances behind nginx serve many people whose sessions expire mid-run, without a logout or a 5xx", async () => {
  test.setTimeout(300_000);
  const running: Proc[] = [];
  const backend = await startBackend({ jwtExpiry: 30, siteUrl: "http://127.0.0.1" });
  running.push(backend);
  try {
    const sessionSecret = newSessionSecret();
    const apps = [await startApp(backend, { sessionSecret }), await startApp(backend, { sessionSecret })];
    running.unshift(...apps);
    const nginx = await startNginx(apps.map((a) => a.url));
    running.unshift(nginx);

    const people = await createPeople(backend, 10, "acme");
    const workload = await readWorkload(backend, "acme", "WEB");
    for (const person of people) await signIn(nginx.url, person);
    const result = await runLoad({
      baseUrl: nginx.url,
      people,
      workload,
      seconds: 10,
      untilEveryoneRounds: 1,
      maxSeconds: 150,
    });
    const refreshes = await refreshTally(backend);

    expect(result.errors, "responses other than 2xx/3xx").toEqual({});
    expect(result.shed, "requests shed (20 connections, 32 allowed in flight per instance)").toBe(0);
    expect(result.transportErrors, "connection errors and timeouts").toBe(0);
    expect(result.logouts, "people signed out").toBe(0);
    expect(refreshes.alreadyUsed, "refresh_token_already_used").toBe(0);
    expect(refreshes.failed, "failed refreshes").toBe(0);
    // every person got through teams → team → board → task → move → comment, each step answered
    expect(
      result.roundsPerPerson.every((n) => n >= 1),
      `rounds per person: ${result.roundsPerPerson}`,
    ).toBe(true);
    // tokens did expire during the run
    expect(refreshes.done).toBeGreaterThan(people.length);
    // both instances answered people's requests (round-robin, no stickiness)
    for (const app of apps)
      expect(app.output().match(/\[req \w+\] (GET|POST) \/teams/g)?.length ?? 0).toBeGreaterThan(10);
  } finally {
    for (const p of running) await p.stop().catch(() => undefined);
  }
});
