import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

/** The OAuth 2.1 server's client registry (GoTrue's /admin/oauth/clients), through supabase-js's admin API. */
describe("OAuth server clients, when the project enables the OAuth server", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ auth: { oauthServer: { enabled: true, allowDynamicRegistration: false } } });
  });
  afterAll(() => stack.close());

  it("registers, reads, updates, regenerates the secret of and deletes a client", async () => {
    const oauth = stack.adminClient().auth.admin.oauth;
    const created = await oauth.createClient({
      client_name: "Reports",
      redirect_uris: ["https://reports.example.test/callback", "http://localhost:3000/cb"],
    });
    expect(created.error).toBeNull();
    const client = created.data!;
    expect(client).toMatchObject({
      client_type: "confidential",
      token_endpoint_auth_method: "client_secret_basic",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      registration_type: "manual",
      redirect_uris: ["https://reports.example.test/callback", "http://localhost:3000/cb"],
    });
    expect(client.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const got = await oauth.getClient(client.client_id);
    expect(got.data?.client_name).toBe("Reports");
    expect(got.data).not.toHaveProperty("client_secret");

    const updated = await oauth.updateClient(client.client_id, { logo_uri: "https://reports.example.test/logo.png" });
    expect(updated.data).toMatchObject({ client_name: "Reports", logo_uri: "https://reports.example.test/logo.png" });

    const regenerated = await oauth.regenerateClientSecret(client.client_id);
    expect(regenerated.data?.client_secret).toBeDefined();
    expect(regenerated.data?.client_secret).not.toBe(client.client_secret);

    const listed = await oauth.listClients();
    expect(listed.data.clients.map((c) => c.client_id)).toContain(client.client_id);

    expect((await oauth.deleteClient(client.client_id)).error).toBeNull();
    const gone = await oauth.getClient(client.client_id);
    expect(gone.error?.status).toBe(404);
    expect(gone.error?.message).toBe("OAuth client not found");
  });

  it("answers invalid registrations with GoTrue's messages", async () => {
    const oauth = stack.adminClient().auth.admin.oauth;
    const empty = await oauth.createClient({ client_name: "x", redirect_uris: [] });
    expect(empty.error?.status).toBe(400);
    expect(empty.error?.message).toBe("400: redirect_uris is required");
    const plainHttp = await oauth.createClient({ client_name: "x", redirect_uris: ["http://example.test/cb"] });
    expect(plainHttp.error?.message).toBe(
      "400: invalid redirect_uri 'http://example.test/cb': HTTP scheme only allowed for localhost",
    );
    const publicClient = await oauth.createClient({
      client_name: "SPA",
      redirect_uris: ["https://spa.example.test/cb"],
      token_endpoint_auth_method: "none",
    } as Parameters<typeof oauth.createClient>[0]);
    expect(publicClient.data).toMatchObject({ client_type: "public", token_endpoint_auth_method: "none" });
    expect(publicClient.data).not.toHaveProperty("client_secret");
    const regen = await oauth.regenerateClientSecret(publicClient.data!.client_id);
    expect(regen.error?.message).toBe("Cannot regenerate secret for public client");
  });

  it("refuses dynamic registration unless the project allows it", async () => {
    const res = await fetch(`${stack.url}/auth/v1/oauth/clients/register`, {
      method: "POST",
      headers: { apikey: stack.anonKey, "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["https://x.example.test/cb"] }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error_code).toBe("oauth_dynamic_client_registration_disabled");
  });
});

describe("OAuth server clients when the OAuth server is off (hosted's default)", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack.close());

  it("answers 'OAuth server is disabled' after the admin check", async () => {
    const { error } = await stack.adminClient().auth.admin.oauth.listClients();
    expect(error?.status).toBe(404);
    expect(error?.message).toBe("OAuth server is disabled");
    const asAnon = await fetch(`${stack.url}/auth/v1/admin/oauth/clients`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${stack.anonKey}` },
    });
    expect(asAnon.status).toBe(403);
    expect((await asAnon.json()).error_code).toBe("not_admin");
  });
});
