// Package txn turns storage transactions into SQL transactions: a write set
// of buffered tombstones, statement atomicity, savepoints, ordered commit
// and rollback hooks, and the deferred / immediate locking protocol.
//
// # Write set
//
// Every Tree.Delete of a write transaction — in key order or not, of a row
// or an index entry, found by rowid, by an index or by a scan — records a
// tombstone (tree root, key) in the transaction and touches no page. Every
// read of the same transaction — Get, Cursor, Count — treats tombstoned
// keys as gone, so uniqueness checks and count(*) are exact. A tree's
// first tombstone registers two hooks on the transaction: an OnCommit step
// that applies the tree's tombstones and an OnRollback step that discards
// them (undoing the statement or savepoint that registered them
// unregisters them, running the discard). At Commit the tombstone steps
// run after every other commit hook, so after all of the transaction's
// inserts: each sorts its tree's keys (a radix sort on the 8 bytes after
// their common prefix) and deletes them with storage.Tree.DeleteSorted,
// which descends once per leaf run and copies each leaf once into the
// write transaction's private pages through the page cache, so each
// page is modified, and its superseded version recycled, once however
// many tombstones it held. Rollback discards the buffer and nothing
// reaches the file. Inserts and updates go straight to the storage write
// transaction, whose pages stay private until commit. A Put on a
// tombstoned key cancels the tombstone, so deleting and re-inserting a
// key in one transaction is exact. UPDATE, REPLACE and upserts use the
// same write set: the row is overwritten with Put, and each changed index
// entry is a Delete of the old key plus a Put of the new one (the same key
// again cancels its tombstone), so reads inside the transaction and the
// committed result are exact.
//
// # Undo
//
// Statements (StartStatement / EndStatement) and savepoints are positions
// in an undo log of logical operations recorded as they are applied: the
// old value of each storage Put, tombstones added and cancelled, trees
// created and dropped, meta slots set, hooks registered. Undoing to a
// position replays the log backwards. A full Rollback never replays it: it
// discards the storage transaction. The log is emptied whenever no
// statement or savepoint is open, so its size is bounded by the work since
// the oldest open savepoint. Writes to a tree created after the newest undo
// point are not logged (undoing the creation drops the tree), and Insert
// skips the old-value lookup for keys the caller knows are absent. DDL is
// transactional for free: the catalog lives in trees too, and DropTree is
// buffered until commit.
//
// # Locking
//
// A deferred transaction takes its snapshot at its first statement and the
// writer lock at its first write (waiting up to the store's busy timeout,
// then an errs.CodeBusy error). If a commit happened in between, the write
// fails with a busy-snapshot error (ExtendedCode errs.ExtBusySnapshot)
// instead of overwriting data the transaction never saw.
// StartWriteStatement, and Options.Immediate, take the lock before the
// snapshot, so autocommit writes never see that error.
//
// # Invariants
//
//   - Every verified tombstone's key exists in the write transaction's
//     storage tree. Delete buffers unverified tombstones without a lookup;
//     Count verifies them (dropping those of absent keys) before it
//     subtracts, and the commit counts only keys storage actually deleted.
//   - Each tree's tombstones (tombSet) keep a sorted run for keys deleted in
//     ascending order (packed bytes: an append, and a scan checks the key
//     it visits with one comparison) and an open-addressing hash table over
//     packed keys for keys deleted out of order (random point deletes,
//     index entries); a key is live in at most one. Adds are a stack popped
//     only by undo, and a run of Deletes shares one undo entry.
//   - A tree has pending tombstones only while its tombstone hooks are
//     registered (Tree.hooked).
//   - rtx and wtx, when both are open, have the same snapshot.
//   - Undo entries after a position were applied after it, in log order.
//
// # Caveats
//
// The tombstone buffer lives in memory until Commit or Rollback: per key
// deleted out of key order an entry, hash slots and the packed key (about
// 40–70 bytes for a rowid key), per key deleted in order the packed key
// plus 13 bytes, so a transaction deleting tens of millions of rows holds
// a buffer of gigabytes.
//
// A Tx belongs to one goroutine at a time. Values returned by Get and
// Cursor.Value are valid until the next write of the transaction. A cursor
// opened before a deferred transaction's first write keeps reading the
// snapshot (without the transaction's own later writes, tombstones
// excepted).
package txn
