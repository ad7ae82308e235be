import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { openSqlite } from "../../server/db/sqlite-adapter.ts";

/** WAL checkpoints run in a worker thread (server/db/sqlite-checkpointer.ts), not inside the commits. */
describe("SQLite checkpoints", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "checkpoint-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("the connection never checkpoints in a commit; the worker does, and the data is all there", async () => {
    const file = path.join(dir, `store-${Date.now()}-${Math.random().toString(36).slice(2)}.db`);
    const db = openSqlite(file);
    try {
      expect(db.raw.prepare("PRAGMA wal_autocheckpoint").get()).toEqual({ wal_autocheckpoint: 0 });
      db.raw.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
      const insert = db.raw.prepare("INSERT INTO t (body) VALUES (?)");
      for (let i = 0; i < 3000; i++) insert.run("x".repeat(2000)); // far past the 1,000 pages of the default autocheckpoint
      // The connection itself never copies the WAL into the database file; the worker does, within
      // a few of its intervals, so the file grows to hold all 6 MB.
      const dataBytes = 3000 * 2000;
      let fileSize = statSync(file).size;
      for (let i = 0; i < 100 && fileSize < dataBytes; i++) {
        await sleep(100);
        fileSize = statSync(file).size;
      }
      expect(fileSize).toBeGreaterThanOrEqual(dataBytes);
      expect(db.raw.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 3000 });
    } finally {
      db.close();
    }
    // Closed: another connection reads everything from the file.
    const again = openSqlite(file);
    try {
      expect(again.raw.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 3000 });
    } finally {
      again.close();
    }
  });

  it("close returns once the worker has let go of the files, so the folder can be removed at once", async () => {
    // Closed at once (the worker may not have started) and after the worker has checkpointed.
    for (const openMs of [0, 0, 0, 300, 300]) {
      const own = mkdtempSync(path.join(tmpdir(), "checkpoint-close-"));
      const file = path.join(own, "store.db");
      const db = openSqlite(file);
      db.raw.exec("CREATE TABLE t (id INTEGER PRIMARY KEY)");
      await sleep(openMs);
      db.close();
      expect(readdirSync(own)).toEqual(["store.db"]); // SQLite removed -wal and -shm at the last close
      rmSync(own, { recursive: true });
      await sleep(50);
      expect(existsSync(own)).toBe(false); // nothing came back to write into it
    }
  });

  it("an in-memory database has no checkpointer and keeps SQLite's default", () => {
    const db = openSqlite(":memory:");
    try {
      expect(db.raw.prepare("PRAGMA wal_autocheckpoint").get()).toEqual({ wal_autocheckpoint: 1000 });
    } finally {
      db.close();
    }
  });
});
