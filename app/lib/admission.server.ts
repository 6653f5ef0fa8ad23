/**
 * Load shedding for the production server (server.mjs): at most
 * `maxInFlight` requests are handled at once; the next ones wait their turn
 * (first come, first served) for at most `maxWaitMs`, and a request that
 * can't start by then is shed: answered at once with 503 instead of joining
 * a queue that grows for as long as the overload lasts.
 *
 * Why it matters beyond speed: a signed-in request refreshes its session
 * when it starts and hands the new cookies back when it ends. With answers
 * taking tens of seconds, a person's other request, sent meanwhile with the
 * old refresh token, reaches the backend after the new token was rotated
 * again and more than the reuse interval (10 s) after the old one was: the
 * backend takes that for a stolen token, revokes the whole session, and the
 * person is signed out (docs/decisions/0017-deployed-performance.md).
 * Bounding how long a request waits and runs keeps every refresh inside
 * that window.
 *
 * Writes go first: a waiting form post (`urgent`) gets the next free slot
 * before any waiting page view, so under overload it is page views that are
 * shed, and what someone typed is rarely turned away.
 *
 * One client holds at most `maxPerClient` slots: its next request waits for
 * one of its own to be given back (or is shed), while other clients' take
 * the free ones, so a single address cannot take every slot.
 */
export interface Admission {
  /**
   * Resolves with the function that gives the slot back (call it once the
   * response is done; calling it again does nothing), or with null when the
   * request waited `maxWaitMs` without a slot (shed) or `signal` aborted
   * while it waited (the client went away).
   */
  enter(signal?: AbortSignal, urgent?: boolean, client?: string): Promise<(() => void) | null>;
  /** requests being handled now */
  readonly inFlight: number;
  /** requests waiting for a slot */
  readonly waiting: number;
}

export interface AdmissionOptions {
  /** requests handled at once; 0 or less: no limit */
  maxInFlight: number;
  /** how long a request may wait for a slot before it is shed; 0: shed at once when all slots are taken */
  maxWaitMs: number;
  /** slots one client (an address) may hold at once; 0 or less, or no client given: no cap */
  maxPerClient?: number;
}

export function createAdmission({ maxInFlight, maxWaitMs, maxPerClient = 0 }: AdmissionOptions): Admission {
  type Waiter = { client: string | undefined; grant: (release: (() => void) | null) => void };
  let inFlight = 0;
  /** slots held, by client */
  const held = new Map<string, number>();
  // waiting writes, then waiting reads; each first come, first served
  const writes: Waiter[] = [];
  const reads: Waiter[] = [];
  const unlimited = !(maxInFlight > 0);
  const capped = maxPerClient > 0;

  const mayTake = (client: string | undefined) =>
    (unlimited || inFlight < maxInFlight) &&
    !(capped && client !== undefined && (held.get(client) ?? 0) >= maxPerClient);

  const slot = (client: string | undefined) => {
    inFlight++;
    if (client !== undefined) held.set(client, (held.get(client) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      inFlight--;
      if (client !== undefined) {
        const n = (held.get(client) ?? 1) - 1;
        if (n > 0) held.set(client, n);
        else held.delete(client);
      }
      // the first waiter (writes first) whose client may take a slot now
      for (const queue of [writes, reads]) {
        const at = queue.findIndex((w) => mayTake(w.client));
        if (at >= 0) {
          const [next] = queue.splice(at, 1);
          return next.grant(slot(next.client));
        }
      }
    };
  };

  return {
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return writes.length + reads.length;
    },
    enter(signal, urgent = false, client) {
      if (signal?.aborted) return Promise.resolve(null);
      if (mayTake(client)) return Promise.resolve(slot(client));
      if (!(maxWaitMs > 0)) return Promise.resolve(null);
      const queue = urgent ? writes : reads;
      return new Promise((resolve) => {
        const leave = () => {
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          clearTimeout(timer);
          signal?.removeEventListener("abort", leave);
          resolve(null);
        };
        const waiter: Waiter = {
          client,
          grant(release) {
            clearTimeout(timer);
            signal?.removeEventListener("abort", leave);
            resolve(release);
          },
        };
        const timer = setTimeout(leave, maxWaitMs);
        signal?.addEventListener("abort", leave, { once: true });
        queue.push(waiter);
      });
    },
  };
}

/**
 * What a shed page view gets from the server itself, without the app: a
 * page costs the app a render, and under overload a shed must cost next to
 * nothing (form posts and data requests still go through the app, which
 * keeps what was typed). No scripts, no styles: served under the static
 * files' content security policy.
 */
export function shedPage(message: string): string {
  const escaped = message.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/'/g, "&#39;");
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Teamboard is busy</title></head>
<body><main><p>Backend unavailable</p><h1>${escaped}</h1><p><a href="">Try again</a></p></main></body>
</html>
`;
}

/** Fields never written back into a page (as the forms never echo them). */
const SECRET_FIELDS = /^(password|confirm|token|code|recoveryCode|_.*)$/;

/**
 * A form posted without JavaScript that the server shed while the person was
 * signed in: the app can't draw its page (that needs the backend), so the
 * answer is this page, which says the form was not sent and holds what was
 * typed in a form of its own that posts it again to the same address (issue
 * 22 L12; it used to be the plain 503 page, and the typed text was lost).
 * Passwords, codes and files are not kept. Null when the body can't be read
 * as a form (already read by the action, or not a form at all).
 */
export async function unsentFormPage(request: Request, message: string): Promise<string | null> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return null;
  }
  const kept: [string, string][] = [];
  let dropped = false;
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string") dropped ||= value.size > 0;
    else if (SECRET_FIELDS.test(name)) dropped ||= value !== "";
    else kept.push([name, value]);
  }
  const url = new URL(request.url);
  const shown = kept.filter(([name, value]) => value.trim() !== "" && name !== "intent" && !/id$/i.test(name));
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Teamboard is busy</title></head>
<body><main>
<h1>${escapeHtml(message)}</h1>
<p>Nothing you typed is lost: send it again in a moment.${dropped ? " Passwords, codes and files are not kept; the form will ask for them again." : ""}</p>
<form method="post" action="${escapeHtml(url.pathname + url.search)}">
${kept.map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join("\n")}
${shown.length ? `<dl>${shown.map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`).join("")}</dl>` : ""}
<button type="submit">Send again</button>
</form>
</main></body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
