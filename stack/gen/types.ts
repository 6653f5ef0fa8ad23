/**
 * `npm run stack -- gen types`: TypeScript types for the exposed schemas, in
 * the shape `supabase gen types typescript` writes (Database → schema →
 * Tables / Views / Functions / Enums / CompositeTypes, each table with Row,
 * Insert, Update and Relationships; the Tables/Enums/… helper types and
 * Constants), so the app's clients are typed the same way against the local
 * stack and a hosted project. Read from pg_catalog of a database the
 * migrations were applied to.
 */
import type { Catalog, Column, Relation, Routine, TypeRef } from "./catalog.ts";
import { HELPERS } from "./type-helpers.ts";

const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);
const q = (value: string) => JSON.stringify(value);

/** The file's first line: what writes it, and that it is checked. */
export const GENERATED_HEADER =
  "// Generated from the migrations by `npm run stack -- gen types` (stack/gen): don't edit; `npm run check:types` fails when it is out of date.";

/** The TypeScript source, before formatting (the CLI formats it as the Supabase CLI does). */
export function renderTypes(catalog: Catalog): string {
  const schemas = [...catalog.schemas].sort((a, b) => a.localeCompare(b));
  const ts = (type: TypeRef) => tsType(type, catalog);
  const columnsOf = (relationId: number) => catalog.columns.filter((c) => c.relationId === relationId).sort(byName);
  const rowOf = (relationId: number) =>
    `{ ${columnsOf(relationId)
      .map((c) => `${q(c.name)}: ${ts(c.type)}${c.nullable ? " | null" : ""}`)
      .join("\n")} }`;
  const relationshipsOf = (relation: Relation) =>
    `[${catalog.foreignKeys
      .filter(
        (fk) =>
          fk.schema === relation.schema && fk.referencedSchema === relation.schema && fk.relation === relation.name,
      )
      .sort((a, b) => a.name.localeCompare(b.name) || a.referencedRelation.localeCompare(b.referencedRelation))
      .map(
        (fk) =>
          `{ foreignKeyName: ${q(fk.name)}\ncolumns: ${JSON.stringify(fk.columns)}\nisOneToOne: ${fk.oneToOne}\nreferencedRelation: ${q(fk.referencedRelation)}\nreferencedColumns: ${JSON.stringify(fk.referencedColumns)} }`,
      )
      .join(",\n")}]`;
  const none = "[_ in never]: never";

  const schemaBlock = (schema: string) => {
    const tables = catalog.relations.filter((r) => r.schema === schema && r.kind === "table").sort(byName);
    const views = catalog.relations.filter((r) => r.schema === schema && r.kind === "view").sort(byName);
    // as PostgREST can call them: every input argument named, or a single unnamed one
    const routines = catalog.routines
      .filter((r) => r.schema === schema)
      .filter((r) => {
        const inputs = r.args.filter((a) => a.mode === "in" || a.mode === "inout" || a.mode === "variadic");
        return !inputs.some((a) => a.name === "") || inputs.length === 1;
      })
      .sort(byName);
    const enums = catalog.enums.filter((e) => e.schema === schema).sort(byName);
    const composites = catalog.composites.filter((c) => c.schema === schema).sort(byName);

    const tableBlock = (t: Relation) => {
      const cols = columnsOf(t.id);
      const insert = cols.map((c) =>
        c.identityAlways
          ? `${q(c.name)}?: never`
          : `${q(c.name)}${c.nullable || c.hasDefault ? "?" : ""}: ${ts(c.type)}${c.nullable ? " | null" : ""}`,
      );
      const update = cols.map((c) =>
        c.identityAlways ? `${q(c.name)}?: never` : `${q(c.name)}?: ${ts(c.type)}${c.nullable ? " | null" : ""}`,
      );
      return `${q(t.name)}: { Row: ${rowOf(t.id)}\nInsert: { ${insert.join("\n")} }\nUpdate: { ${update.join("\n")} }\nRelationships: ${relationshipsOf(t)} }`;
    };
    const viewBlock = (v: Relation) => {
      const cols = columnsOf(v.id);
      const writable = (c: Column) => (c.updatable ? `${q(c.name)}?: ${ts(c.type)} | null` : `${q(c.name)}?: never`);
      const writes = v.updatable
        ? `Insert: { ${cols.map(writable).join("\n")} }\nUpdate: { ${cols.map(writable).join("\n")} }\n`
        : "";
      return `${q(v.name)}: { Row: ${rowOf(v.id)}\n${writes}Relationships: ${relationshipsOf(v)} }`;
    };
    const routinesByName = new Map<string, Routine[]>();
    for (const r of routines) routinesByName.set(r.name, [...(routinesByName.get(r.name) ?? []), r]);
    const routineBlock = ([name, overloads]: [string, Routine[]]) => {
      const args = overloads
        .map((r) => {
          const inputs = r.args.filter((a) => a.mode === "in");
          if (inputs.length === 0) return "Record<PropertyKey, never>";
          return `{ ${inputs.map((a) => `${q(a.name)}${a.hasDefault ? "?" : ""}: ${ts(a.type)}`).join("\n")} }`;
        })
        .join(" | ");
      const first = overloads[0];
      const tableArgs = first.args.filter((a) => a.mode === "table");
      const relation = catalog.relations.find((r) => r.id === first.returnRelationId);
      const returns =
        tableArgs.length > 0
          ? `{ ${tableArgs.map((a) => `${q(a.name)}: ${ts(a.type)}`).join("\n")} }`
          : relation
            ? rowOf(relation.id)
            : ts(first.returnType);
      return `${q(name)}: { Args: ${args}\nReturns: ${returns}${first.returnsSet ? "[]" : ""} }`;
    };

    return `${q(schema)}: {
      Tables: { ${tables.length ? tables.map(tableBlock).join("\n") : none} }
      Views: { ${views.length ? views.map(viewBlock).join("\n") : none} }
      Functions: { ${routinesByName.size ? [...routinesByName].map(routineBlock).join("\n") : none} }
      Enums: { ${enums.length ? enums.map((e) => `${q(e.name)}: ${e.values.map(q).join(" | ")}`).join("\n") : none} }
      CompositeTypes: { ${
        composites.length
          ? composites
              .map(
                (c) => `${q(c.name)}: { ${c.attributes.map((a) => `${q(a.name)}: ${ts(a.type)} | null`).join("\n")} }`,
              )
              .join("\n")
          : none
      } }
    }`;
  };

  const constants = schemas
    .map((schema) => {
      const enums = catalog.enums.filter((e) => e.schema === schema).sort(byName);
      return `${q(schema)}: { Enums: { ${enums.map((e) => `${q(e.name)}: [${e.values.map(q).join(", ")}]`).join(",\n")} } }`;
    })
    .join(",\n");

  return `${GENERATED_HEADER}
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  ${schemas.map(schemaBlock).join("\n")}
}
${HELPERS}
export const Constants = {
  ${constants}
} as const
`;
}

/** A column's or argument's type, as the Supabase CLI maps it. */
function tsType(type: TypeRef, catalog: Catalog): string {
  const name = type.name;
  if (name === "bool") return "boolean";
  if (["int2", "int4", "int8", "float4", "float8", "numeric"].includes(name)) return "number";
  if (
    [
      "bytea",
      "bpchar",
      "varchar",
      "date",
      "text",
      "citext",
      "time",
      "timetz",
      "timestamp",
      "timestamptz",
      "uuid",
      "vector",
    ].includes(name)
  )
    return "string";
  if (name === "json" || name === "jsonb") return "Json";
  if (name === "void") return "undefined";
  if (name === "record") return "Record<string, unknown>";
  if (name.startsWith("_")) return `(${tsType({ schema: type.schema, name: name.slice(1) }, catalog)})[]`;
  const exposed = (schema: string) => catalog.schemas.includes(schema);
  const enumType = catalog.enums.find((e) => e.name === name);
  if (enumType)
    return exposed(enumType.schema)
      ? `Database[${q(enumType.schema)}]["Enums"][${q(name)}]`
      : enumType.values.map(q).join(" | ");
  const composite = catalog.composites.find((c) => c.name === name);
  if (composite)
    return exposed(composite.schema) ? `Database[${q(composite.schema)}]["CompositeTypes"][${q(name)}]` : "unknown";
  const relation = catalog.relations.find((r) => r.name === name);
  if (relation)
    return `Database[${q(relation.schema)}][${q(relation.kind === "view" ? "Views" : "Tables")}][${q(name)}]["Row"]`;
  return "unknown";
}
