import CSQLite

/// The peer for reads and writes: documents as rows of one SQLite table, the way the seed
/// apps keep their progress locally. WAL mode with synchronous=NORMAL: a committed write
/// survives the app crashing (it is in the WAL file), not necessarily the machine losing
/// power — the same promise as a Cairn write before its checkpoint. Statements are prepared
/// once and reused, as GRDB caches them.
final class SQLiteDocuments {
    private var database: OpaquePointer?
    private var select: OpaquePointer?
    private var upsert: OpaquePointer?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String) throws {
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            defer { sqlite3_close(database) }
            throw Failure(description: "cannot open \(path): \(String(cString: sqlite3_errmsg(database)))")
        }
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
        try execute("CREATE TABLE IF NOT EXISTS documents (path TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL) WITHOUT ROWID")
        select = try prepare("SELECT body FROM documents WHERE path = ?")
        upsert = try prepare("INSERT INTO documents (path, body) VALUES (?, ?) ON CONFLICT(path) DO UPDATE SET body = excluded.body")
    }

    deinit {
        sqlite3_finalize(select)
        sqlite3_finalize(upsert)
        sqlite3_close(database)
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
            throw Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(database)))")
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK else {
            throw Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(database)))")
        }
        return statement
    }

    /// Writes one document in its own transaction (autocommit).
    func put(_ bytes: [UInt8], at path: String) throws {
        defer { sqlite3_reset(upsert) }
        csqlite_bind_text(upsert, 1, path, -1)
        _ = bytes.withUnsafeBytes { csqlite_bind_blob(upsert, 2, $0.baseAddress, Int32($0.count)) }
        guard sqlite3_step(upsert) == SQLITE_DONE else {
            throw Failure(description: "cannot write \(path): \(String(cString: sqlite3_errmsg(database)))")
        }
    }

    /// The document's bytes, or nil when there is none.
    func get(_ path: String) throws -> [UInt8]? {
        defer { sqlite3_reset(select) }
        csqlite_bind_text(select, 1, path, -1)
        switch sqlite3_step(select) {
        case SQLITE_ROW:
            let count = Int(sqlite3_column_bytes(select, 0))
            guard count > 0, let bytes = sqlite3_column_blob(select, 0) else { return [] }
            return Array(UnsafeRawBufferPointer(start: bytes, count: count))
        case SQLITE_DONE:
            return nil
        default:
            throw Failure(description: "cannot read \(path): \(String(cString: sqlite3_errmsg(database)))")
        }
    }
}
