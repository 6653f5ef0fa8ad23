import { describe, expect, it } from "vitest";
import { RestError } from "./errors.ts";
import { parseQuery } from "./parser.ts";
import type { Column, SchemaCache, Table } from "./schema.ts";
import { arrayLiteral, tableScope } from "./plan-fields.ts";
import { planRead } from "./plan-read.ts";
import { relationshipsOf } from "./plan-relationships.ts";
import { Params, printLevel } from "./query-read.ts";

function column(name: string, position: number, typname = "text"): Column {
  return {
    name,
    type: typname,
    typeSql: `"pg_catalog"."${typname}"`,
    typeOid: 25,
    category: "S",
    typname,
    nullable: true,
    default: null,
    generated: false,
    position,
  };
}

function table(name: string, cols: string[]): Table {
  return {
    schema: "public",
    name,
    kind: "table",
    isView: false,
    columns: new Map(cols.map((c, i) => [c, column(c, i + 1)])),
    pk: ["id"],
    uniques: [["id"]],
    insertable: true,
    updatable: true,
    deletable: true,
  };
}

const users = table("users", ["id", "name", "data"]);
const posts = table("posts", ["id", "user_id", "title"]);
const cache: SchemaCache = {
  schemas: ["public"],
  tables: new Map([
    ["public\u0000users", users],
    ["public\u0000posts", posts],
  ]),
  relationships: new Map([
    [
      "public\u0000posts",
      [
        {
          source: posts,
          target: users,
          cardinality: "m2o",
          isSelf: false,
          constraint: "posts_user_id_fkey",
          cols: [["user_id", "id"]],
        },
      ],
    ],
    [
      "public\u0000users",
      [
        {
          source: users,
          target: posts,
          cardinality: "o2m",
          isSelf: false,
          constraint: "posts_user_id_fkey",
          cols: [["id", "user_id"]],
        },
      ],
    ],
  ]),
  routines: new Map(),
  types: new Map([["text", '"pg_catalog"."text"']]),
  aggregatesEnabled: false,
  planEnabled: false,
  geoJsonFn: null,
  preRequest: null,
  loadedAt: 0,
};

function build(qs: [string, string][]) {
  const params = new Params();
  const node = planRead(
    cache,
    { kind: "relation", relation: { schema: "public", name: "users" } },
    tableScope(users),
    parseQuery(qs),
    { offset: 0, limit: 1000 },
  );
  return { ...printLevel(node, params), values: params.values };
}

describe("the read planner and printer", () => {
  it("binds every value and quotes every identifier", () => {
    const evil = "x'); drop table users; --";
    const { sql, values } = build([
      ["select", "id,name,data->>k,posts(title)"],
      ["name", `eq.${evil}`],
      ["posts.title", `like.*${evil}*`],
      ["or", `(name.in.("${evil}",b),id.gt.3)`],
    ]);
    expect(sql).not.toContain("drop table");
    expect(values).toContain(evil);
    expect(values).toContain(`%${evil}%`);
    expect(values).toContain(arrayLiteral([evil, "b"]));
    expect(sql).toContain('"users"."name" = $');
    expect(sql).toContain("LIMIT 1000");
  });

  it("only lets names from the schema cache through", () => {
    expect(() => build([["select", "nope"]])).toThrow(RestError);
    expect(() => build([["select", "id::notatype"]])).toThrow(/type "notatype" does not exist/);
    expect(() => build([["select", "id,comments(*)"]])).toThrow(/Could not find a relationship/);
    expect(() => build([["nope", "eq.1"]])).toThrow(/column users.nope does not exist/);
  });

  it("plans the embeds before printing SQL: relationship errors come before column errors", () => {
    const embeds = relationshipsOf(cache, users, parseQuery([["select", "id,posts(title)"]]).select);
    expect([...embeds.values()].map((e) => [e.rel.cardinality, e.rel.target.name])).toEqual([["o2m", "posts"]]);
    expect(() => build([["select", "nope,comments(*)"]])).toThrow(/Could not find a relationship/);
  });

  it("refuses aggregates while they are disabled", () => {
    try {
      build([["select", "id.count()"]]);
      expect.unreachable();
    } catch (e) {
      expect((e as RestError).code).toBe("PGRST123");
    }
  });

  it("escapes array literal elements", () => {
    expect(arrayLiteral(['a"b', "c\\d", "e,f"])).toBe('{"a\\"b","c\\\\d","e,f"}');
  });
});
