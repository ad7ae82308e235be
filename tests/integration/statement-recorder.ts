import { createQueryId, type KyselyPlugin, type RootOperationNode } from "kysely";
import type { Db } from "../../server/db/connection.ts";

/** A handle that records every statement run through it, compiled as the database receives it. */
export function recording(db: Db) {
  const nodes: RootOperationNode[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      nodes.push(node);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const recorded = db.withPlugin(plugin);
  const compiled = () => nodes.map((node) => recorded.getExecutor().compileQuery(node, createQueryId()));
  return { db: recorded, compiled, reset: () => (nodes.length = 0) };
}
