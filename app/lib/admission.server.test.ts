import { describe, expect, it } from "vitest";
import { createAdmission, shedPage } from "./admission.server";

describe("admission: how many requests run at once", () => {
  it("lets requests in up to the limit, then sheds at once when they may not wait", async () => {
    const admission = createAdmission({ maxInFlight: 2, maxWaitMs: 0 });
    const first = await admission.enter();
    const second = await admission.enter();
    expect(first).toBeTypeOf("function");
    expect(second).toBeTypeOf("function");
    expect(await admission.enter()).toBeNull();
    expect(admission.inFlight).toBe(2);

    first!();
    first!(); // giving a slot back twice frees one slot, not two
    expect(admission.inFlight).toBe(1);
    const third = await admission.enter();
    expect(third).toBeTypeOf("function");
    expect(await admission.enter()).toBeNull();
  });

  it("hands a freed slot to the request that waited longest, and sheds one that waited too long", async () => {
    const admission = createAdmission({ maxInFlight: 1, maxWaitMs: 60_000 });
    const running = await admission.enter();
    const order: string[] = [];
    const a = admission.enter().then((release) => (order.push("a"), release));
    const b = admission.enter().then((release) => (order.push("b"), release));
    expect(admission.waiting).toBe(2);

    running!();
    const releaseA = await a;
    expect(order).toEqual(["a"]);
    expect(admission.inFlight).toBe(1);
    releaseA!();
    expect(await b).toBeTypeOf("function");
    expect(order).toEqual(["a", "b"]);

    const short = createAdmission({ maxInFlight: 1, maxWaitMs: 20 });
    await short.enter();
    expect(await short.enter()).toBeNull();
    expect(short.waiting).toBe(0);
  });

  it("gives a freed slot to a waiting write before any waiting read", async () => {
    const admission = createAdmission({ maxInFlight: 1, maxWaitMs: 60_000 });
    const running = await admission.enter();
    const order: string[] = [];
    const read = admission.enter(undefined, false).then((release) => (order.push("read"), release));
    const write = admission.enter(undefined, true).then((release) => (order.push("write"), release));
    running!();
    (await write)!();
    (await read)!();
    expect(order).toEqual(["write", "read"]);
    expect(admission.inFlight).toBe(0);
  });

  it("drops a waiting request whose client went away, without taking a slot for it", async () => {
    const admission = createAdmission({ maxInFlight: 1, maxWaitMs: 60_000 });
    const running = await admission.enter();
    const gone = new AbortController();
    const waiting = admission.enter(gone.signal);
    const next = admission.enter();
    gone.abort();
    expect(await waiting).toBeNull();
    expect(admission.waiting).toBe(1);
    running!();
    expect(await next).toBeTypeOf("function");
    expect(admission.inFlight).toBe(1);
    expect(await admission.enter(AbortSignal.abort())).toBeNull();
  });

  it("lets one client hold at most maxPerClient slots, and gives the others' free slots to other clients", async () => {
    const admission = createAdmission({ maxInFlight: 4, maxWaitMs: 60_000, maxPerClient: 2 });
    const a1 = await admission.enter(undefined, true, "10.0.0.1");
    const a2 = await admission.enter(undefined, true, "10.0.0.1");
    let a3: (() => void) | null | undefined;
    const waitingA = admission.enter(undefined, true, "10.0.0.1").then((release) => (a3 = release));
    // the client at its cap waits, though two slots are free; another client takes one at once
    const b1 = await admission.enter(undefined, false, "10.0.0.2");
    expect(b1).toBeTypeOf("function");
    expect(admission.inFlight).toBe(3);
    expect(admission.waiting).toBe(1);
    // another client's slot coming back does not lift the cap
    b1!();
    await Promise.resolve();
    expect(a3).toBeUndefined();
    // its own does
    a1!();
    await waitingA;
    expect(a3).toBeTypeOf("function");
    expect(admission.inFlight).toBe(2);
    a2!();
    a3!();
    expect(admission.inFlight).toBe(0);
    // requests without a client, and a cap of 0, are not capped
    const open = createAdmission({ maxInFlight: 3, maxWaitMs: 0, maxPerClient: 0 });
    for (let i = 0; i < 3; i++) expect(await open.enter(undefined, false, "10.0.0.1")).toBeTypeOf("function");
    const anonymous = createAdmission({ maxInFlight: 3, maxWaitMs: 0, maxPerClient: 1 });
    for (let i = 0; i < 3; i++) expect(await anonymous.enter()).toBeTypeOf("function");
  });

  it("sheds a capped client's request that waited too long", async () => {
    const admission = createAdmission({ maxInFlight: 4, maxWaitMs: 20, maxPerClient: 1 });
    await admission.enter(undefined, false, "10.0.0.1");
    expect(await admission.enter(undefined, false, "10.0.0.1")).toBeNull();
    expect(admission.waiting).toBe(0);
  });

  it("has no limit when maxInFlight is 0", async () => {
    const admission = createAdmission({ maxInFlight: 0, maxWaitMs: 0 });
    const all = await Promise.all(Array.from({ length: 100 }, () => admission.enter()));
    expect(all.every((release) => typeof release === "function")).toBe(true);
  });

  it("makes the static page of a shed page view: the message, escaped, and nothing that runs", () => {
    const page = shedPage("Can't <b>reach</b> it & so on");
    expect(page).toContain("<h1>Can&#39;t &lt;b>reach&lt;/b> it &amp; so on</h1>");
    expect(page).not.toMatch(/<script|<style|style=/);
  });
});
