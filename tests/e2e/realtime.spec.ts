import type { Page, WebSocketRoute } from "@playwright/test";
import { expect, test } from "./fixtures";
import { addComments, seedTeam, signedInClient, STATUS_NAME, type SeedStatus } from "./product-fixtures";
import { liveJoined } from "./support/live";

/**
 * docs/product.md §7: two people on one board, each in their own browser: what one
 * does shows on the other's screen without a reload (Realtime through the
 * stack), presence on the task panel, and signing out closes the socket.
 */
const column = (page: Page, status: SeedStatus) => page.locator(`section[data-status-name="${STATUS_NAME[status]}"]`);
const card = (page: Page, status: SeedStatus, title: string) =>
  column(page, status).locator("li[data-task-id]", { hasText: title });

const initials = (name: string) => {
  const parts = name.split(" ");
  return (parts[0][0] + parts[parts.length - 1][0]).toUpperCase();
};

/** A mark in the page's JavaScript world: gone if the page reloads. */
async function markNoReload(page: Page) {
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  return async () =>
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
}

test("a move, a title edit and a comment by one person show on another's board without a reload; presence shows and clears", async ({
  browser,
  backend,
  page,
  login,
}) => {
  const team = await seedTeam(backend, { tasks: [{ title: "Ship the live board", status: "todo" }] });
  const mia = team.users.member;
  const adam = team.users.admin;
  await login(mia);
  const other = await browser.newContext({ baseURL: backend.env.appUrl });
  await login(adam, other);
  const adamPage = await other.newPage();
  const board = `/teams/${team.slug}/projects/WEB`;

  const adamLive = liveJoined(adamPage);
  await adamPage.goto(board);
  await adamLive;
  const noReload = await markNoReload(adamPage);
  await expect(card(adamPage, "todo", "Ship the live board")).toBeVisible();

  // Mia moves the card with the task panel's form
  await page.goto(`${board}/tasks/1`);
  const panel = page.getByRole("complementary", { name: "Task" });
  await panel.getByLabel("Status", { exact: true }).selectOption({ label: "In progress" });
  await page.getByRole("button", { name: "Move", exact: true }).click();
  await expect(page.getByText("WEB-1 is in In progress.")).toBeVisible();
  await expect(card(adamPage, "in_progress", "Ship the live board")).toBeVisible();
  await expect(column(adamPage, "todo").locator("li[data-task-id]")).toHaveCount(0);

  // and renames it
  await panel.getByRole("link", { name: "Edit", exact: true }).click();
  await panel.getByLabel("Title", { exact: true }).fill("Ship the realtime board");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("WEB-1 is saved.")).toBeVisible();
  await expect(card(adamPage, "in_progress", "Ship the realtime board")).toBeVisible();
  await noReload();

  // Adam opens the same task: each sees the other on it
  await adamPage.getByRole("link", { name: /Ship the realtime board/ }).click();
  const adamPanel = adamPage.getByRole("complementary", { name: "Task" });
  await expect(adamPanel.locator(".also-viewing")).toContainText(
    `Also viewing: ${initials(mia.displayName)}${mia.displayName}`,
  );
  await expect(panel.locator(".also-viewing")).toContainText(adam.displayName);
  // the flash message Mia got stays while Adam's presence arrives
  await expect(page.getByText("WEB-1 is saved.")).toBeVisible();

  // Mia comments; Adam reads it in his open panel
  await panel.getByLabel("Add a comment").fill("Going live on Monday.");
  await panel.getByRole("button", { name: "Post comment" }).click();
  await expect(panel.locator(".comment-body", { hasText: "Going live on Monday." })).toBeVisible();
  await expect(adamPanel.locator(".comment-body", { hasText: "Going live on Monday." })).toBeVisible();
  await noReload();

  // Mia closes the task: she is gone from Adam's panel
  await panel.getByRole("link", { name: "Close the task" }).click();
  await expect(adamPanel.locator(".also-viewing")).toBeHidden();

  // Mia moves it to another project (docs/product.md §18): it leaves Adam's board without a reload
  const ops = await backend.admin().from("projects").insert({ team_id: team.id, key: "OPS", name: "Operations" });
  expect(ops.error).toBeNull();
  const adamBack = liveJoined(adamPage);
  await adamPage.goto(board);
  await adamBack;
  const stillNoReload = await markNoReload(adamPage);
  await expect(card(adamPage, "in_progress", "Ship the realtime board")).toBeVisible();
  await page.goto(`${board}/tasks/1/move`);
  const move = page.getByRole("region", { name: "Move to another project" });
  await move.getByLabel("Project").selectOption("OPS");
  await move.getByRole("button", { name: "Next" }).click();
  await move.getByRole("button", { name: "Move WEB-1 to OPS" }).click();
  await expect(page.getByText("WEB-1 moved to Operations: it is OPS-1 now.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/teams/${team.slug}/projects/OPS/tasks/1$`));
  await expect(adamPage.locator("li[data-task-id]")).toHaveCount(0);
  await stillNoReload();
  await other.close();
});

test("a card counts its comments and attachments, and another person's new comment without a reload", async ({
  page,
  backend,
  login,
}) => {
  const team = await seedTeam(backend, {
    tasks: [
      { title: "Plan the launch", status: "todo" },
      { title: "Nothing said yet", status: "todo" },
    ],
  });
  const plan = team.tasks[0];
  await addComments(backend, plan.id, team.users.admin, 2);
  // a real file: the object, then its row, as the app stores them
  const adam = await signedInClient(backend, team.users.admin);
  const objectPath = `${plan.id}/brief.txt`;
  const upload = await adam.storage
    .from("attachments")
    .upload(objectPath, new Blob(["the brief"], { type: "text/plain" }), { contentType: "text/plain" });
  expect(upload.error).toBeNull();
  const row = await adam.from("attachments").insert({
    task_id: plan.id,
    object_path: objectPath,
    file_name: "brief.txt",
    size_bytes: 9,
    content_type: "text/plain",
  });
  expect(row.error).toBeNull();

  await login(team.users.member);
  const live = liveJoined(page);
  await page.goto(`/teams/${team.slug}/projects/WEB`);
  const planned = card(page, "todo", "Plan the launch");
  await expect(planned.getByText("2 comments")).toBeVisible();
  await expect(planned.getByText("1 attachment")).toBeVisible();
  await expect(card(page, "todo", "Nothing said yet").getByText(/comment|attachment/)).toHaveCount(0);
  await live;
  const noReload = await markNoReload(page);

  // Adam says one more thing from his own session: Mia's card counts it
  const comment = await adam.from("comments").insert({ task_id: plan.id, body: "One more thing." });
  expect(comment.error).toBeNull();
  await expect(planned.getByText("3 comments")).toBeVisible();
  await noReload();
});

test("signing out closes the realtime socket", async ({ page, backend, login }) => {
  const team = await seedTeam(backend, { tasks: [{ title: "Watch me", status: "todo" }] });
  await login(team.users.member);
  const closed = new Promise<void>((resolve) => {
    page.on("websocket", (ws) => {
      if (ws.url().includes("/realtime/v1/websocket")) ws.on("close", () => resolve());
    });
  });
  const live = liveJoined(page);
  await page.goto(`/teams/${team.slug}/projects/WEB`);
  await live;
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await closed;
});

test("a change made while the connection was lost shows once it is back, without a reload", async ({
  page,
  backend,
  login,
}) => {
  const team = await seedTeam(backend, { tasks: [{ title: "Survive a dropped line", status: "todo" }] });
  await login(team.users.member);
  // The page's Realtime socket passes through here to the stack. While the line is down, the open
  // socket is closed and each reconnection the client tries is refused as it opens, as on a phone
  // that lost its signal; realtime-js retries after 1, 2, 5 and then every 10 s.
  let down = false;
  const sockets: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/realtime\/v1\/websocket/, (ws) => {
    if (down) return void ws.close({ code: 1001, reason: "line down" });
    ws.connectToServer();
    sockets.push(ws);
  });
  const live = liveJoined(page);
  await page.goto(`/teams/${team.slug}/projects/WEB`);
  await live;
  const noReload = await markNoReload(page);

  down = true;
  await Promise.all(sockets.splice(0).map((ws) => ws.close({ code: 1001, reason: "line down" })));
  // meanwhile Adam renames the task from his own session: no socket of this page is there to hear it
  const adam = await signedInClient(backend, team.users.admin);
  const { error } = await adam
    .from("tasks")
    .update({ title: "Renamed while you were away" })
    .eq("id", team.tasks[0].id);
  expect(error).toBeNull();
  await expect(card(page, "todo", "Survive a dropped line")).toBeVisible();

  // the line is back: the client's next try joins again, and the board reads what it missed
  const back = liveJoined(page);
  down = false;
  await back;
  await expect(card(page, "todo", "Renamed while you were away")).toBeVisible();
  await noReload();
});
