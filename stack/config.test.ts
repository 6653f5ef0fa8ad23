import fs from "node:fs";
import { DEFAULT_ADMISSION } from "./db/admission.ts";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, parseLatency } from "./config-load.ts";
import { isLocalSiteUrl, localProviderEnabled } from "./config.ts";

describe("stack configuration", () => {
  it("uses a hosted project's defaults when nothing is set", () => {
    const config = loadConfig({ file: null, env: {} });
    expect(config.port).toBe(54321);
    expect(config.auth).toMatchObject({
      jwtExpiry: 3600,
      refreshTokenReuseInterval: 10,
      flowStateExpiry: 300,
      otpExpiry: 3600,
      emailSendInterval: 60,
    });
    expect(config.rest).toEqual({
      schemas: ["public"],
      maxRows: 1000,
      statementTimeout: { anon: 3000, authenticated: 8000, service_role: 8000 },
      admission: DEFAULT_ADMISSION,
    });
    // X-Forwarded-For is believed from nobody unless proxies are named
    expect(config.trustedProxies).toEqual([]);
    expect(config.limits).toEqual({
      jsonDepth: 64,
      arrayLength: 10_000,
      stringLength: 131_072,
      bracketDepth: 128,
      queryValueLength: 16_384,
      embedDepth: 4,
    });
    expect(config.auth).toMatchObject({ maxOtpAttempts: 5, maxPasswordFailures: 10, passwordFailureWindow: 900 });
  });

  it("lets a JSON file, then the environment, then code override the defaults", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tb-config-"));
    const file = path.join(dir, "local-stack.json");
    fs.writeFileSync(file, JSON.stringify({ auth: { jwtExpiry: 600, autoconfirm: true }, rest: { maxRows: 50 } }));
    const config = loadConfig({
      file,
      env: {
        GOTRUE_JWT_EXP: "120",
        PGRST_DB_SCHEMAS: "public, api",
        GOTRUE_SMTP_HOST: "smtp.example.test",
        GOTRUE_SMTP_PORT: "2525",
        STACK_TRUSTED_PROXIES: "10.0.0.1, ::1",
      },
      overrides: { port: 6000 },
    });
    expect(config.auth.jwtExpiry).toBe(120);
    expect(config.auth.autoconfirm).toBe(true);
    expect(config.rest).toEqual({
      schemas: ["public", "api"],
      maxRows: 50,
      statementTimeout: { anon: 3000, authenticated: 8000, service_role: 8000 },
      admission: DEFAULT_ADMISSION,
    });
    expect(config.trustedProxies).toEqual(["10.0.0.1", "::1"]);
    expect(config.auth.smtp).toEqual({ host: "smtp.example.test", port: 2525, user: undefined, pass: undefined });
    expect(config.port).toBe(6000);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("reads a latency for benchmarks as a duration, and refuses anything else", () => {
    expect(loadConfig({ file: null, env: {} }).latencyMs).toBe(0);
    expect(loadConfig({ file: null, env: { STACK_LATENCY: "20ms" } }).latencyMs).toBe(20);
    expect(parseLatency("0.1s")).toBe(100);
    expect(parseLatency("5")).toBe(5);
    expect(() => parseLatency("fast")).toThrow(/duration like 20ms/);
  });

  it("turns the local OAuth provider on only for a site on this machine, unless set", () => {
    for (const url of ["http://localhost:5173", "http://127.0.0.1", "http://[::1]:3000", "http://app.localhost"])
      expect(isLocalSiteUrl(url), url).toBe(true);
    for (const url of [
      "https://teamboard.example.com",
      "http://localhost.example.com",
      "http://127.0.0.1.nip.io",
      "http://10.0.0.5",
      "not a url",
    ])
      expect(isLocalSiteUrl(url), url).toBe(false);
    expect(loadConfig({ file: null, env: {} }).auth.localProvider).toBeNull();
    const hosted = (env: Record<string, string>) =>
      localProviderEnabled(
        loadConfig({ file: null, env: { GOTRUE_SITE_URL: "https://teamboard.example.com", ...env } }).auth,
      );
    expect(hosted({})).toBe(false);
    expect(hosted({ STACK_AUTH_LOCAL_PROVIDER: "true" })).toBe(true);
    const local = (env: Record<string, string>) =>
      localProviderEnabled(loadConfig({ file: null, env: { GOTRUE_SITE_URL: "http://localhost:5173", ...env } }).auth);
    expect(local({})).toBe(true);
    expect(local({ STACK_AUTH_LOCAL_PROVIDER: "false" })).toBe(false);
  });
});
