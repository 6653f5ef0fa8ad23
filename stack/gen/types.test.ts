import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateTypes } from "./index.ts";
import { GENERATED_HEADER } from "./types.ts";

const MIGRATION = /* sql */ `
create type public.mood as enum ('calm', 'busy');
create type public.point2 as (x int, y int);
create table public.owners (id uuid primary key default gen_random_uuid(), name text not null);
create table public.pets (
  id bigint generated always as identity primary key,
  owner_id uuid not null unique references public.owners (id),
  name text not null,
  nickname text,
  tags text[] not null default '{}',
  mood public.mood not null default 'calm',
  extra jsonb
);
create view public.pet_names as select id, name from public.pets;
create function public.pets_of(owner uuid, lim int default 10) returns setof public.pets language sql stable as 'select * from public.pets where owner_id = owner limit lim';
create function public.count_pets() returns int language sql stable as 'select count(*)::int from public.pets';
`;

describe("gen types", () => {
  it("writes the exposed schema in the Supabase CLI's shape", { timeout: 60_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gen-types-"));
    fs.writeFileSync(path.join(dir, "20250101000000_pets.sql"), MIGRATION);
    const out = await generateTypes({ migrationsDir: dir, schemas: ["public"] });
    fs.rmSync(dir, { recursive: true, force: true });

    // says it is generated, and by what
    expect(out.split("\n")[0]).toBe(GENERATED_HEADER);
    // a table: Row as stored, Insert with what has defaults optional, Update all optional, identity ALWAYS never written
    expect(out).toContain(`pets: {
        Row: {
          extra: Json | null
          id: number
          mood: Database["public"]["Enums"]["mood"]
          name: string
          nickname: string | null
          owner_id: string
          tags: string[]
        }
        Insert: {
          extra?: Json | null
          id?: never
          mood?: Database["public"]["Enums"]["mood"]
          name: string
          nickname?: string | null
          owner_id: string
          tags?: string[]
        }`);
    // its foreign key, one-to-one because owner_id is unique
    expect(out).toContain(`foreignKeyName: "pets_owner_id_fkey"
            columns: ["owner_id"]
            isOneToOne: true
            referencedRelation: "owners"
            referencedColumns: ["id"]`);
    // a view's columns may be null; a view Postgres can update through has Insert and Update too
    expect(out).toMatch(
      /pet_names: \{\s+Row: \{\s*id: number \| null[;\s]+name: string \| null\s*\}\s+Insert: \{\s*id\?: number \| null/,
    );
    // functions: arguments with defaults optional; a set of table rows is an array of them
    expect(out).toMatch(
      /pets_of: \{\s+Args: \{ owner: string; lim\?: number \}\s+Returns: \{[^}]*owner_id: string[^}]*\}\[\]/,
    );
    expect(out).toMatch(/count_pets: \{ Args: Record<PropertyKey, never>; Returns: number \}/);
    expect(out).toContain(`mood: "calm" | "busy"`);
    expect(out).toMatch(/point2: \{\s*x: number \| null[;\s]+y: number \| null\s*\}/);
    expect(out).toMatch(
      /export const Constants = \{\s+public: \{ Enums: \{ mood: \["calm", "busy"\] \} \},\s+\} as const/,
    );
    expect(out).toContain("export type TablesInsert<");
  });
});
