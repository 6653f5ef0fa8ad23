import { describe, expect, it } from "vitest";
import { rewriteExtensionStatement } from "./index.ts";

describe("create extension for the extensions the stack supplies", () => {
  it("is answered with the stack's SQL, however the statement is written", () => {
    for (const sql of [
      "create extension pg_cron",
      "create extension if not exists pg_cron with schema pg_catalog;",
      'CREATE EXTENSION IF NOT EXISTS "pg_net" WITH SCHEMA "extensions"',
      "-- Vault\ncreate extension if not exists supabase_vault with schema vault cascade",
      "create extension pg_net schema extensions version '0.20.0'",
    ]) {
      expect(rewriteExtensionStatement(sql), sql).toMatch(/create schema if not exists (cron|net|vault);/);
    }
  });

  it("fails as Postgres does when the extension is there and IF NOT EXISTS is not", () => {
    expect(rewriteExtensionStatement("create extension pg_cron")).toContain('extension "pg_cron" already exists');
    expect(rewriteExtensionStatement("create extension if not exists pg_cron")).not.toContain("already exists");
  });

  it("drops the extension's schema (and with it every job) on drop extension", () => {
    expect(rewriteExtensionStatement("drop extension if exists pg_cron")).toBe("drop schema if exists cron cascade;");
    expect(rewriteExtensionStatement("drop extension pg_net cascade")).toContain('extension "pg_net" does not exist');
  });

  it("leaves every other statement to Postgres", () => {
    for (const sql of [
      "create extension if not exists pgcrypto with schema extensions",
      "create extension pg_cronx",
      "select 'create extension pg_cron'",
      "create table pg_cron (id int)",
    ]) {
      expect(rewriteExtensionStatement(sql), sql).toBeNull();
    }
  });
});
