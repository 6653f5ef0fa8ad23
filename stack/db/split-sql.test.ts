import { describe, expect, it } from "vitest";
import { splitSql } from "./split-sql.ts";

describe("splitSql", () => {
  it("splits at top-level semicolons and keeps start lines", () => {
    const parts = splitSql("create table a (id int);\n\ninsert into a values (1);\n");
    expect(parts).toEqual([
      { sql: "create table a (id int)", line: 1 },
      { sql: "insert into a values (1)", line: 3 },
    ]);
  });

  it("ignores semicolons inside quotes, dollar quotes and comments", () => {
    const script = [
      "select 'a;b', \"c;d\", E'it\\'s;';",
      "-- a comment; with a semicolon",
      "create function f() returns int language sql as $$ select 1; $$;",
      "create function g() returns int language plpgsql as $body$ begin return 2; end $body$;",
      "/* block; /* nested; */ still comment; */ select 3;",
    ].join("\n");
    const parts = splitSql(script).map((p) => p.sql);
    expect(parts).toHaveLength(4);
    expect(parts[1]).toContain("$$ select 1; $$");
    expect(parts[2]).toContain("return 2; end");
    expect(parts[3]).toMatch(/select 3$/);
  });

  it("drops statements that are only comments", () => {
    expect(splitSql("-- nothing here\n/* or here */\n")).toEqual([]);
  });
});
